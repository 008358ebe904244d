"""Reading scenarios and army lists (docs/decisions.md "Files") and bad input.

Bad-input cases are data files in ``tests/cases/bad_input/``: each starts with one or more
``# expect: TEXT`` lines, the text the single error message must contain.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from szwadron.errors import InvalidDataError
from szwadron.loading import (
    bundled_dir,
    bundled_scenario,
    load_army_list,
    load_scenario,
    parse_scenario,
    read_toml,
)
from szwadron.models import Kind, Profile, TerrainKind, UnitState

REPO = Path(__file__).resolve().parent.parent
BAD = Path(__file__).parent / "cases" / "bad_input"
ARMYLISTS = REPO / "armylists"


def _expectations(path: Path) -> list[str]:
    return [
        line.removeprefix("# expect:").strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("# expect:")
    ]


@pytest.mark.parametrize("case", sorted(BAD.glob("*.toml")), ids=lambda p: p.stem)
def test_bad_input_gives_one_clear_message(case: Path) -> None:
    """Every malformed file raises InvalidDataError naming the file and the field path or line."""
    expected = _expectations(case)
    assert expected, f"{case.name} has no '# expect:' line"
    with pytest.raises(InvalidDataError) as info:
        load_scenario(case)
    message = str(info.value)
    assert message.startswith(str(case)), message
    for text in expected:
        assert text in message, f"{case.name}: {text!r} not in {message!r}"


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(InvalidDataError, match="the file is empty"):
        load_scenario(empty)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    latin = tmp_path / "latin1.toml"
    latin.write_bytes('name = "ok"\n# Kürassiere\n'.encode("latin-1"))
    with pytest.raises(InvalidDataError, match=r"line 2: not UTF-8"):
        load_scenario(latin)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidDataError, match="no such file"):
        load_scenario(tmp_path / "nope.toml")
    with pytest.raises(InvalidDataError, match="is a folder"):
        read_toml(tmp_path)


def test_malformed_toml_reports_line_and_column() -> None:
    with pytest.raises(InvalidDataError) as info:
        load_scenario(BAD / "malformed_toml.toml")
    assert "line 5, column" in str(info.value)


def test_bundled_example_loads_every_kind() -> None:
    """The bundled example has two sides, six or more units each, every kind of figure (1.2),
    skirmishers (1.3.4), a two-level hill, a forest, a fence and a building (issue 2)."""
    scenario = load_scenario(bundled_scenario("example"))
    sides = {"A": 0, "B": 0}
    kinds = set()
    skirmishers = 0
    for unit in scenario.units:
        sides[unit.side] += 1
        for i in range(unit.strength):
            kinds.add(unit.base_profile(i).kind)
        skirmishers += unit.has("skirmish")
    assert sides["A"] >= 6 and sides["B"] >= 6
    assert {Kind.INFANTRY, Kind.CAVALRY, Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY} <= kinds
    assert skirmishers >= 2
    terrain_kinds = [t.kind for t in scenario.terrain]
    assert {TerrainKind.FOREST, TerrainKind.OBSTACLE, TerrainKind.BUILDING} <= set(terrain_kinds)
    assert sorted(t.hill_level for t in scenario.terrain if t.kind is TerrainKind.HILL) == [1, 2]


def test_1_1_per_figure_profiles_and_bare_reference() -> None:
    """1.1 — a base may carry its own profile; a bare id refers to the unit's army list."""
    scenario = load_scenario(bundled_scenario("example"))
    unit = scenario.unit("fr-line-1")
    assert unit.base_profile(0).id == "line_infantry"
    assert unit.base_profile(2).id == "grenadiers"
    assert unit.base_profile(2).morale > unit.base_profile(0).morale
    assert unit.starting_strength == 14 and unit.strength == 12


def test_pd_1_cavalry_base_is_two_wide_four_deep() -> None:
    scenario = load_scenario(bundled_scenario("example"))
    assert scenario.unit("fr-hussars").base_size(0) == (2.0, 4.0)
    assert scenario.unit("fr-battery").base_size(0) == (4.0, 4.0)
    assert scenario.unit("fr-line-1").base_size(0) == (2.0, 2.0)


def test_settings_override_and_default() -> None:
    """PD-3/PD-5 settings: a scenario's [settings] overrides the defaults, others stay."""
    data = {
        "name": "s",
        "table": {"width": 10, "depth": 10},
        "settings": {"remainder_die": "d10", "contact_tolerance_cm": 0.1},
    }
    scenario = parse_scenario(data, source="mem", folders=[ARMYLISTS])
    assert scenario.settings.remainder_die == "d10"
    assert scenario.settings.contact_tolerance_cm == 0.1
    assert scenario.settings.control_zone_cm == 2.0
    with pytest.raises(InvalidDataError, match=r"settings\.remainder_die"):
        parse_scenario({**data, "settings": {"remainder_die": "d8"}}, source="mem", folders=[ARMYLISTS])
    with pytest.raises(InvalidDataError, match=r"settings\.control_zone: unknown field"):
        parse_scenario({**data, "settings": {"control_zone": 3}}, source="mem", folders=[ARMYLISTS])


def test_1_1_rulebook_codes_are_aliases() -> None:
    by_code = Profile.model_validate(
        {
            "id": "p",
            "name": "P",
            "kind": "cavalry",
            "R": 24,
            "W": 3,
            "SW": 2,
            "SO": 0,
            "Z": 0,
            "UW": 4,
            "C": 0,
            "M": 5,
        }
    )
    by_name = Profile.model_validate(
        {
            "id": "p",
            "name": "P",
            "kind": "cavalry",
            "move": 24,
            "wounds": 3,
            "melee": 2,
            "fire": 0,
            "range": 0,
            "melee_skill": 4,
            "accuracy": 0,
            "morale": 5,
        }
    )
    assert by_code == by_name


def test_inline_profile_and_state() -> None:
    data = {
        "name": "inline",
        "table": {"width": 100, "depth": 100},
        "units": [
            {
                "id": "u",
                "side": "B",
                "state": "panic",
                "profile": {
                    "id": "p",
                    "name": "P",
                    "kind": "infantry",
                    "R": 12,
                    "W": 2,
                    "SW": 1,
                    "SO": 1,
                    "Z": 24,
                    "UW": 3,
                    "C": 3,
                    "M": 4,
                },
                "bases": [{"x": 1, "y": 1, "facing": 0}],
            }
        ],
    }
    scenario = parse_scenario(data, source="mem", folders=[])
    assert scenario.unit("u").state is UnitState.PANIC
    assert scenario.unit("u").profile.move == 12


def test_army_lists_are_valid() -> None:
    for path in sorted(ARMYLISTS.glob("*.toml")):
        army = load_army_list(path)
        assert army.id == path.stem
        for profile in army.profiles:
            assert profile.wounds >= 1
            assert not (profile.ammunition and not profile.kind.is_artillery)


def test_bad_army_list(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'id = "bad"\nname = "Bad"\n[[profiles]]\nid = "a"\nname = "A"\nkind = "infantry"\n'
        "R = 12\nW = 0\nSW = 1\nSO = 1\nZ = 24\nUW = 3\nC = 3\nM = 4\n"
        '[[rosters]]\nid = "r"\nunits = [{ profile = "zz", figures = 3 }]\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidDataError) as info:
        load_army_list(bad)
    assert "profiles[0] (id 'a').wounds: expected a number of at least 1" in str(info.value)


def test_bundled_dir_points_at_data() -> None:
    assert (bundled_dir("armylists") / "france.toml").is_file()
    assert bundled_scenario().is_file()
    assert not math.isnan(load_scenario(bundled_scenario()).table.width)
