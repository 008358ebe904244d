"""Issue 7 — the six army lists: troop types, a shared scale of characteristics (1.1) and the
special rules (section 7) used consistently across nations.

The templates below are the scale of ``armylists/README.md`` (a test checks the two agree). Each
nation's profile for a role may differ from the template by at most one point per
characteristic; the profile's ``note`` gives the reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from szwadron.armies.rosters import validate_roster
from szwadron.loading import load_army_list
from szwadron.models import Ability, ArmyList, Kind, Profile

REPO = Path(__file__).resolve().parent.parent
ARMYLISTS = REPO / "armylists"
NATIONS = ("france", "britain", "austria", "russia", "prussia", "warsaw")
CODES = ("move", "wounds", "melee", "fire", "range", "melee_skill", "accuracy", "morale")

# role: (kind, (R, W, SW, SO, Z, UW, C, M), abilities)
TEMPLATES: dict[str, tuple[Kind, tuple[int, ...], frozenset[str]]] = {
    "militia": (Kind.INFANTRY, (12, 1, 1, 1, 24, 2, 2, 3), frozenset()),
    "line": (Kind.INFANTRY, (12, 2, 1, 1, 24, 3, 3, 4), frozenset()),
    "light": (Kind.INFANTRY, (12, 2, 1, 1, 24, 3, 4, 4), frozenset()),
    "skirmish": (Kind.INFANTRY, (14, 2, 1, 1, 24, 2, 4, 4), frozenset({"skirmish"})),
    "rifles": (Kind.INFANTRY, (14, 2, 1, 1, 30, 2, 4, 4), frozenset({"skirmish"})),
    "grenadiers": (Kind.INFANTRY, (12, 2, 1, 1, 24, 4, 3, 5), frozenset()),
    "guard": (Kind.INFANTRY, (12, 3, 1, 1, 24, 4, 4, 5), frozenset()),
    "light_cav": (Kind.CAVALRY, (28, 2, 2, 0, 0, 3, 0, 4), frozenset()),
    "irregular": (Kind.CAVALRY, (28, 2, 2, 0, 0, 2, 0, 3), frozenset({"auto_disengage"})),
    "lancers": (Kind.CAVALRY, (26, 2, 2, 0, 0, 3, 0, 4), frozenset({"first_strike_charge"})),
    "dragoons": (Kind.CAVALRY, (26, 3, 2, 0, 0, 3, 0, 4), frozenset()),
    "heavy_cav": (Kind.CAVALRY, (24, 3, 2, 0, 0, 4, 0, 5), frozenset()),
    "gun12": (Kind.FOOT_ARTILLERY, (4, 4, 1, 3, 60, 2, 3, 4), frozenset({"heavy"})),
    "gun9": (Kind.FOOT_ARTILLERY, (10, 3, 1, 2, 54, 2, 3, 4), frozenset()),
    "gun6": (Kind.FOOT_ARTILLERY, (10, 3, 1, 2, 48, 2, 3, 4), frozenset()),
    "horse6": (Kind.HORSE_ARTILLERY, (20, 3, 1, 2, 48, 2, 3, 4), frozenset()),
    "howitzer": (Kind.FOOT_ARTILLERY, (4, 3, 1, 2, 50, 2, 3, 4), frozenset({"indirect"})),
    "limber": (Kind.LIMBER, (20, 2, 0, 0, 0, 1, 0, 3), frozenset()),
}
#: role → ammunition (name, Z, SO, C, indirect) every profile of the role carries (7.1.3)
AMMUNITION: dict[str, set[tuple[str, float, int, int, bool]]] = {
    "gun12": {("roundshot", 60, 3, 3, False), ("canister", 16, 6, 4, False)},
    "gun9": {("roundshot", 54, 2, 3, False), ("canister", 15, 5, 4, False)},
    "gun6": {("roundshot", 48, 2, 3, False), ("canister", 14, 4, 4, False)},
    "horse6": {("roundshot", 48, 2, 3, False), ("canister", 14, 4, 4, False)},
    "howitzer": {("shell", 50, 2, 3, True), ("canister", 14, 4, 4, False)},
}
#: 7.2 — roles that move only with their limber, and their limbered R
LIMBERED_MOVE = {"gun12": 12.0, "howitzer": 12.0}

#: nation → role → profile id: every profile of every list has exactly one role
ROLES: dict[str, dict[str, str]] = {
    "france": {
        "line": "line_infantry",
        "light": "light_infantry",
        "skirmish": "voltigeurs",
        "grenadiers": "grenadiers",
        "guard": "old_guard",
        "light_cav": "hussars",
        "lancers": "lancers",
        "dragoons": "dragoons",
        "heavy_cav": "cuirassiers",
        "gun12": "foot_artillery",
        "gun6": "field_battery",
        "horse6": "horse_artillery",
        "howitzer": "howitzers",
        "limber": "limber",
    },
    "britain": {
        "line": "line_infantry",
        "light": "light_infantry",
        "rifles": "riflemen",
        "guard": "foot_guards",
        "light_cav": "light_dragoons",
        "heavy_cav": "heavy_dragoons",
        "gun9": "foot_artillery",
        "horse6": "horse_artillery",
        "howitzer": "howitzers",
        "limber": "limber",
    },
    "austria": {
        "line": "line_infantry",
        "militia": "landwehr",
        "skirmish": "grenzer",
        "rifles": "jaeger",
        "grenadiers": "grenadiers",
        "light_cav": "chevaulegers",
        "lancers": "uhlans",
        "dragoons": "dragoons",
        "heavy_cav": "cuirassiers",
        "gun12": "position_artillery",
        "gun6": "brigade_battery",
        "horse6": "cavalry_battery",
        "howitzer": "howitzer_battery",
        "limber": "limber",
    },
    "russia": {
        "line": "line_infantry",
        "militia": "opolchenie",
        "skirmish": "jagers",
        "grenadiers": "grenadiers",
        "guard": "guard_infantry",
        "light_cav": "hussars",
        "lancers": "uhlans",
        "dragoons": "dragoons",
        "heavy_cav": "cuirassiers",
        "irregular": "cossacks",
        "gun12": "position_battery",
        "gun6": "light_battery",
        "horse6": "horse_battery",
        "howitzer": "unicorn_battery",
        "limber": "limber",
    },
    "prussia": {
        "line": "line_infantry",
        "militia": "landwehr",
        "light": "fusiliers",
        "rifles": "jager",
        "grenadiers": "grenadiers",
        "guard": "guard",
        "light_cav": "hussars",
        "lancers": "uhlans",
        "dragoons": "dragoons",
        "heavy_cav": "cuirassiers",
        "gun12": "position_battery",
        "gun6": "foot_battery",
        "horse6": "horse_battery",
        "howitzer": "howitzer_battery",
        "limber": "limber",
    },
    "warsaw": {
        "line": "line_infantry",
        "skirmish": "voltigeurs",
        "grenadiers": "grenadiers",
        "light_cav": "chasseurs",
        "lancers": "lancers",
        "heavy_cav": "cuirassiers",
        "irregular": "krakusi",
        "gun6": "foot_battery",
        "horse6": "horse_artillery",
        "howitzer": "howitzers",
        "limber": "limber",
    },
}
#: Extra roles per nation: second profiles of a role (Austrian Hungarian hussars).
EXTRA_ROLES: dict[str, dict[str, str]] = {"austria": {"hussars": "light_cav"}}

#: The line template of armylists/README.md: the infantry baseline (R W SW SO Z UW C M)
INFANTRY_BASELINE = (12, 2, 1, 1, 24, 3, 3, 4)


def _army(nation: str) -> ArmyList:
    return load_army_list(ARMYLISTS / f"{nation}.toml")


def _stats(p: Profile) -> tuple[float, ...]:
    return tuple(getattr(p, c) for c in CODES)


def _role_of(nation: str) -> dict[str, str]:
    """profile id → role"""
    out = {pid: role for role, pid in ROLES[nation].items()}
    out.update(EXTRA_ROLES.get(nation, {}))
    return out


def _all_profiles() -> list[tuple[str, str, Profile]]:
    """(nation, role, profile) for every profile of every list."""
    out = []
    for nation in NATIONS:
        roles = _role_of(nation)
        for p in _army(nation).profiles:
            out.append((nation, roles[p.id], p))
    return out


def test_issue7_the_six_armies_and_nothing_else() -> None:
    assert sorted(p.stem for p in ARMYLISTS.glob("*.toml")) == sorted(NATIONS)


@pytest.mark.parametrize("nation", NATIONS)
def test_issue7_every_list_loads_and_every_profile_has_a_role(nation: str) -> None:
    army = _army(nation)
    assert army.id == nation
    assert set(_role_of(nation)) == {p.id for p in army.profiles}, "a profile without a role"


@pytest.mark.parametrize("nation", NATIONS)
def test_issue7_expected_troop_types(nation: str) -> None:
    """Line infantry, light infantry or skirmishers, grenadiers or guard, light and heavy cavalry,
    foot and horse artillery with roundshot and canister, howitzers with indirect ammunition,
    limbers where guns need them (7.2)."""
    army = _army(nation)
    roles = ROLES[nation]

    def kind_of(role: str) -> Kind:
        return army.profile(roles[role]).kind

    assert kind_of("line") is Kind.INFANTRY
    assert {"light", "skirmish", "rifles"} & roles.keys()
    assert {"grenadiers", "guard"} & roles.keys()
    assert kind_of("light_cav") is Kind.CAVALRY and kind_of("heavy_cav") is Kind.CAVALRY
    for kind in (Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY):
        guns = [p for p in army.profiles if p.kind is kind]
        assert any({"roundshot", "canister"} <= {a.name for a in p.ammunition} for p in guns), kind
    assert any(a.indirect for p in army.profiles for a in p.ammunition), "no howitzer (7.4)"
    if any(p.move_limbered is not None for p in army.profiles):
        assert any(p.kind is Kind.LIMBER for p in army.profiles), "guns need limbers but none (7.2)"


def test_issue7_lancers_and_cuirassiers_where_historical() -> None:
    """Britain fielded neither lancers nor armoured cavalry before 1816; the others had both."""
    for nation in NATIONS:
        army = _army(nation)
        lancers = [p for p in army.profiles if p.has(Ability.FIRST_STRIKE_CHARGE)]
        has_cuirassiers = any(p.id == "cuirassiers" for p in army.profiles)
        if nation == "britain":
            assert not lancers and not has_cuirassiers
        else:
            assert lancers and has_cuirassiers, nation


@pytest.mark.parametrize("nation", NATIONS)
def test_1_1_line_infantry_within_one_of_the_design_baseline(nation: str) -> None:
    line = _army(nation).profile("line_infantry")
    for code, value, base in zip(CODES, _stats(line), INFANTRY_BASELINE, strict=True):
        assert abs(value - base) <= 1, f"{nation} line_infantry.{code} = {value}, baseline {base}"


def test_issue7_every_profile_within_one_of_its_role_template() -> None:
    for nation, role, p in _all_profiles():
        kind, stats, abilities = TEMPLATES[role]
        assert p.kind is kind, f"{nation}:{p.id}"
        for code, value, base in zip(CODES, _stats(p), stats, strict=True):
            assert abs(value - base) <= 1, f"{nation}:{p.id}.{code} = {value}, {role} template {base}"
        assert abilities <= {a.value for a in p.abilities}, f"{nation}:{p.id} lacks {role} abilities"


def test_issue7_deviations_are_explained() -> None:
    """A profile off its template names each change in its note ('C-1', 'W+1', ...), and an
    ability beyond its role's cites the rule it brings (7.x)."""
    for nation, role, p in _all_profiles():
        _, stats, abilities = TEMPLATES[role]
        off = [
            (code, value - base)
            for code, value, base in zip(
                ("R", "W", "SW", "SO", "Z", "UW", "C", "M"), _stats(p), stats, strict=True
            )
            if value != base
        ]
        for code, delta in off:
            mark = f"{code}{'+' if delta > 0 else '-'}1"
            assert mark in (p.note or ""), f"{nation}:{p.id}: {mark} not in note {p.note!r}"
        extra = {a.value for a in p.abilities} - abilities
        for ability in extra:
            assert "(7." in (p.note or ""), f"{nation}:{p.id}: extra ability {ability} not explained"


def test_1_5_1_w_between_one_and_five_and_several_values_used() -> None:
    """W in 1..5 so the remainder table (1.5.1) matters; militia to armoured cavalry span 1..4."""
    ws = [p.wounds for _, _, p in _all_profiles()]
    assert all(1 <= w <= 5 for w in ws)
    assert {1, 2, 3, 4} <= set(ws)


def test_issue7_cuirassiers_at_least_as_tough_as_line_and_light_cavalry() -> None:
    for nation in NATIONS:
        army, roles = _army(nation), ROLES[nation]
        heavy = army.profile(roles["heavy_cav"])
        for other in ("dragoons", "light_cav", "lancers"):
            if other in roles:
                p = army.profile(roles[other])
                assert heavy.wounds >= p.wounds, f"{nation}: {heavy.id} W < {p.id} W"
                assert heavy.melee_skill >= p.melee_skill, f"{nation}: {heavy.id} UW < {p.id} UW"


def test_issue7_elite_infantry_above_line() -> None:
    """Grenadiers and guards are steadier (M) and better in melee (UW) than their line."""
    for nation in NATIONS:
        army, roles = _army(nation), ROLES[nation]
        line = army.profile("line_infantry")
        for role in ("grenadiers", "guard"):
            if role in roles:
                elite = army.profile(roles[role])
                assert elite.morale >= line.morale and elite.melee_skill > line.melee_skill, elite.id
        if "militia" in roles:
            militia = army.profile(roles["militia"])
            assert militia.wounds < line.wounds and militia.morale < line.morale


def test_issue7_every_profile_has_a_one_line_note() -> None:
    for nation, _, p in _all_profiles():
        assert p.note and p.note.strip() == p.note and "\n" not in p.note, f"{nation}:{p.id}"
        assert 20 <= len(p.note) <= 110, f"{nation}:{p.id}: note of {len(p.note)} characters"


def test_7_5_skirmish_only_on_infantry() -> None:
    for nation, _, p in _all_profiles():
        if p.has(Ability.SKIRMISH):
            assert p.kind is Kind.INFANTRY, f"{nation}:{p.id}"


def test_7_1_ammunition_only_and_always_on_artillery() -> None:
    """7.1 — artillery carries ammunition types; the profile's SO, Z and C are those of its
    longest-reaching ammunition; the role's ammunition is the same in every nation."""
    for nation, role, p in _all_profiles():
        if not p.kind.is_artillery:
            assert not p.ammunition, f"{nation}:{p.id}"
            continue
        longest = max(p.ammunition, key=lambda a: a.range)
        assert (p.range, p.fire, p.accuracy) == (longest.range, longest.fire, longest.accuracy), p.id
        names = {a.name for a in p.ammunition}
        assert "canister" in names and ({"roundshot", "shell"} & names), f"{nation}:{p.id}"
        carried = {(a.name, a.range, a.fire, a.accuracy, a.indirect) for a in p.ammunition}
        assert AMMUNITION[role] <= carried, f"{nation}:{p.id}"


def test_7_4_indirect_ability_exactly_with_indirect_ammunition() -> None:
    for nation, _, p in _all_profiles():
        indirect_ammo = any(a.indirect for a in p.ammunition)
        assert p.has(Ability.INDIRECT) == indirect_ammo, f"{nation}:{p.id}"


def test_7_3_heavy_only_on_foot_artillery() -> None:
    for nation, _, p in _all_profiles():
        if p.has(Ability.HEAVY):
            assert p.kind is Kind.FOOT_ARTILLERY, f"{nation}:{p.id}"


def test_7_2_limbered_guns_and_one_limber_profile_for_all() -> None:
    """7.2 — the guns that move only with their limber have a faster limbered move; every list's
    limber is the same."""
    limbers = set()
    for nation, role, p in _all_profiles():
        assert (p.move_limbered is not None) == (role in LIMBERED_MOVE), f"{nation}:{p.id}"
        if p.move_limbered is not None:
            assert p.move_limbered == LIMBERED_MOVE[role] > p.move
        if p.kind is Kind.LIMBER:
            limbers.add(p.model_dump_json(exclude={"note"}))
    assert len(limbers) == 1


def test_readme_scale_agrees_with_the_templates() -> None:
    text = (ARMYLISTS / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in TEMPLATES and len(cells) == 10:
            rows[cells[0]] = (tuple(int(c) for c in cells[1:9]), frozenset(re.findall(r"\w+", cells[9])))
    assert rows.keys() == TEMPLATES.keys()
    for role, (_, stats, abilities) in TEMPLATES.items():
        assert rows[role] == (stats, abilities), role


# ---------------------------------------------------------------------- example rosters


@pytest.mark.parametrize("nation", NATIONS)
def test_issue7_rosters_at_1000_and_2000_points_meet_their_constraints(nation: str) -> None:
    army = _army(nation)
    limits = sorted(r.points_limit for r in army.rosters if r.points_limit is not None)
    assert limits == [1000, 2000]
    figures = {}
    for roster in army.rosters:
        report = validate_roster(army, roster)
        assert report.ok, report.describe()
        assert {Kind.INFANTRY, Kind.CAVALRY} <= report.figures_by_kind.keys()
        assert report.figures_by_kind.keys() & {Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY}
        if report.points is None:
            # points come with the points model; until then only they are unchecked
            assert {u.constraint for u in report.unchecked} == {"points_limit", "artillery-fifth"}
        else:
            assert not report.unchecked
        figures[roster.points_limit] = report.figures
    # the 2,000-point roster is the bigger army: about twice the figures, less where it spends
    # more on dear figures (France's, with its Guard: 155 against the 1,000-point division's 98
    # since that was evened with a line battalion for a company of voltigeurs, issue 14)
    assert 1.5 <= figures[2000] / figures[1000] <= 2.5, figures


@pytest.mark.parametrize("nation", NATIONS)
def test_issue7_common_constraints_in_every_list(nation: str) -> None:
    ids = {c.id for c in _army(nation).constraints}
    assert {"infantry-half", "artillery-fifth", "cavalry-share", "battalion-minimum"} <= ids
    fifth = next(c for c in _army(nation).constraints if c.id == "artillery-fifth")
    assert fifth.max_share == 0.2 and fifth.share_of == "points"
    assert {Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY, Kind.LIMBER} == set(fifth.kinds)


@pytest.mark.parametrize("nation", NATIONS)
def test_issue14_skirmishers_at_most_a_quarter_of_the_points(nation: str) -> None:
    """Issue 14: a massed skirmish screen won more than its points said (the exploit search's
    strongest 2,000-point find spent 39 % of its points on jäger), so every list caps the
    skirmishers (7.5: the profiles that may take skirmish order) at a quarter of the points: a
    roster is refused by name exactly when its companies cost more than that."""
    from szwadron.models import Roster

    army = _army(nation)
    cap = next(c for c in army.constraints if c.id == "skirmisher-points")
    assert cap.abilities == (Ability.SKIRMISH,) and cap.max_share == 0.25 and cap.share_of == "points"
    skirmishers = [p for p in army.profiles if Ability.SKIRMISH in p.abilities]
    assert skirmishers
    light = skirmishers[0]
    assert light.points is not None
    line = next(p for p in army.profiles if p.kind is Kind.INFANTRY and Ability.SKIRMISH not in p.abilities)
    assert line.points is not None

    seen = set()
    for companies in range(0, 16):
        roster = Roster.model_validate(
            {
                "id": "screen",
                "units": [
                    {"profile": line.id, "figures": 12, "count": 6},
                    *([{"profile": light.id, "figures": 4, "count": companies}] if companies else []),
                ],
            }
        )
        # companies of 4 at the list's unit-size price (2 figures under its 6: 6 % off, issue 14)
        skirmish = 4 * companies * light.points * army.size_factor(light, 4)
        expected = skirmish / (72 * line.points + skirmish)
        broken = [b for b in validate_roster(army, roster).broken if b.constraint == "skirmisher-points"]
        assert bool(broken) == (expected > 0.25), (companies, expected)
        if broken:
            assert broken[0].actual == pytest.approx(expected) and broken[0].limit == 0.25
            assert "at most 25.0% allowed" in broken[0].message
        seen.add(bool(broken))
    assert seen == {True, False}


@pytest.mark.parametrize("nation", NATIONS)
def test_issue7_unit_sizes_capped_at_the_sizes_the_points_are_measured_on(nation: str) -> None:
    """The points are per figure, measured on battalions of 12, skirmishers and cavalry of 4-8
    and one gun a battery (szwadron.armies.duel, szwadron.armies.battles); bigger units win more than their
    points say (benchmarks/RESULTS.md), so every list caps unit sizes there."""
    from szwadron.armies.battles import RANDOM_UNIT_FIGURES
    from szwadron.armies.duel import STANDARD_UNIT_FIGURES

    caps = {c.id: c for c in _army(nation).constraints if c.max_unit_figures is not None}
    assert caps["battalion-size"].kinds == (Kind.INFANTRY,)
    assert caps["battalion-size"].max_unit_figures == STANDARD_UNIT_FIGURES[Kind.INFANTRY]
    assert caps["skirmisher-size"].max_unit_figures == RANDOM_UNIT_FIGURES["skirmishers"][1]
    assert caps["regiment-size"].max_unit_figures == RANDOM_UNIT_FIGURES["cavalry"][1]
    assert caps["one-gun-battery"].max_unit_figures == 1


@pytest.mark.parametrize("nation", NATIONS)
def test_issue14_line_battalions_have_the_size_the_points_are_measured_on(nation: str) -> None:
    """Issue 14: among random legal rosters a battalion a figure smaller lost about 2.5-4 points
    of win rate at equal points (benchmarks/RESULTS.md), so every list fields its line infantry
    (every infantry profile not in skirmish order, 7.5) in battalions of 12, an attached company
    included: the constraint selects exactly those profiles, and a battalion of 11 is refused."""
    from szwadron.armies.battles import profile_class

    army = _army(nation)
    floor = next(c for c in army.constraints if c.id == "battalion-minimum")
    assert floor.min_unit_figures == 12
    line = {p.id for p in army.profiles if profile_class(p) == "line" and p.kind is not Kind.LIMBER}
    assert set(floor.profiles) == line
    roster = army.rosters[0]
    k, entry = next((k, e) for k, e in enumerate(roster.units) if e.profile in line)
    small = entry.model_copy(update={"figures": entry.figures - 1, "count": 1})
    units = (*roster.units[:k], small, *roster.units[k + 1 :])
    report = validate_roster(army, roster.model_copy(update={"units": units}))
    assert "battalion-minimum" in {b.constraint for b in report.broken}
