"""Combined melee at the table (szwadron.table.combined): 5.10.1-5.10.6, 5.7.4, PD-14. Known-answer
files in tests/cases/melee_combined/ (scenario + ``[check]`` + ``[expected]``, probabilities as
exact fractions worked by hand); the one-unit-a-side answer equals ``table_melee``'s; the small
case is cross-checked against a literal brute force over every die."""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from szwadron.cli import main
from szwadron.documents import document_schema
from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.loading import bundled_scenario, load_scenario, parse_scenario
from szwadron.models import Scenario
from szwadron.odds.morale import MeleeOutcome
from szwadron.table.audit import audit
from szwadron.table.combined import combined_melee
from szwadron.table.melee import table_melee

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases" / "melee_combined"
SINGLE = Path(__file__).parent / "cases" / "melee"


def _load(case: Path) -> tuple[Scenario, dict[str, Any], dict[str, Any]]:
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    check = data.pop("check")
    return parse_scenario(data, source=str(case), folders=[]), check, expected


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path) -> None:
    sc, check, expected = _load(case)
    m = combined_melee(sc, check["attackers"], check["defenders"], continuing=check.get("continuing", False))
    if "groups" in expected:  # 5.10.3; a sixth column: the group strikes first (7.7)
        got = [
            [g.side, g.target, g.skill, g.target_bonus, g.dice, g.first][: len(want)]
            for g, want in zip(m.groups, expected["groups"], strict=True)
        ]
        assert got == expected["groups"]
    if "first_strike_units" in expected:
        assert list(m.first_strike_units) == expected["first_strike_units"]
    for unit, want in expected["units"].items():
        if "removal_order" in want:
            assert list(m.removal_order[unit]) == want["removal_order"]
        rem = m.removed(unit).probabilities()
        assert [rem.get(k, Fraction(0)) for k in range(len(want["removed_pmf"]))] == [
            Fraction(p) for p in want["removed_pmf"]
        ]
        outs = {o.value: p for o, p in m.outcome(unit).probabilities().items()}
        assert outs == {k: Fraction(v) for k, v in want["outcomes"].items()}, f"{case.name}: {unit}"


@pytest.mark.parametrize("case", sorted(SINGLE.glob("*.toml")), ids=lambda p: p.stem)
def test_one_unit_a_side_is_the_single_melee(case: Path) -> None:
    """5.10 with one unit a side is 5.3-5.5: the same exact losses and outcomes."""
    sc, check, _ = _load(case)
    single = table_melee(sc, check["attacker"], check["defender"])
    both = combined_melee(sc, [check["attacker"]], [check["defender"]])
    assert both.losses.map(lambda s: (s[0][0], s[0][1], s[1][0], s[1][1])) == single.odds.losses
    assert both.outcomes == single.odds.outcomes
    assert both.removal_order[check["defender"]] == single.removal_order["defender"]


def test_one_unit_a_side_is_the_single_melee_in_the_example() -> None:
    sc = load_scenario(bundled_scenario())
    engaged = [(u.id, e) for u in audit(sc).units for e in u.engaged_with if u.side == sc.units[0].side]
    assert engaged
    for a, d in engaged:
        single = table_melee(sc, a, d)
        both = combined_melee(sc, [a], [d])
        assert both.outcomes == single.odds.outcomes


def _brute(case: Path) -> tuple[dict[tuple[int, ...], Fraction], dict[tuple[str, ...], Fraction]]:
    """The two-attackers case by every die: strikes (W 1: a scoring die removes the next figure
    in the struck unit's order), then the 5.10.5 tests rolled literally, face by face."""
    joint: dict[tuple[int, ...], Fraction] = {}
    outs: dict[tuple[str, ...], Fraction] = {}
    one = Fraction(1, 6**4)
    for fa, fb, f0, f1 in product(range(1, 7), repeat=4):
        d_lost = min(2, int(fa <= 3) + int(fb <= 4))
        a_lost, b_lost = int(f0 <= 3), int(f1 <= 3)
        key = (a_lost, b_lost, d_lost)
        joint[key] = joint.get(key, Fraction(0)) + one
        for m1, m2 in product(range(1, 7), repeat=2):  # d's repulse and panic tests
            p = one / 36
            if d_lost == 2:
                d = "destroyed"
            elif d_lost == 0:
                d = "stands"
            else:
                target = 2  # M 4, one of two left (6.2: -2)
                d = "stands" if m1 <= target else ("repulsed" if m2 <= target else "panic")
            res = []
            for lost in (a_lost, b_lost):
                if lost:
                    res.append("destroyed")
                elif d in ("repulsed", "panic", "destroyed"):
                    res.append("held")  # no losses: no test, nobody left to fight
                else:
                    res.append("engaged")
            if d == "stands":
                d = "engaged" if "engaged" in res else "held"
            k = (*res, d)
            outs[k] = outs.get(k, Fraction(0)) + p
    return joint, outs


def test_5_10_brute_force_two_attackers_one_defender() -> None:
    case = CASES / "5_10_two_attackers_one_defender.toml"
    sc, check, _ = _load(case)
    m = combined_melee(sc, check["attackers"], check["defenders"])
    joint, outs = _brute(case)
    assert m.losses.map(lambda s: tuple(r for r, _ in s)).probabilities() == joint
    assert {tuple(o.value for o in k): p for k, p in m.outcomes.probabilities().items()} == outs


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _scenario_file(tmp_path: Path) -> str:
    data = tomllib.loads((CASES / "5_10_two_attackers_one_defender.toml").read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    data["units"].append({**data["units"][0], "id": "far", "bases": [{"x": 60.0, "y": 60.0, "facing": 90.0}]})
    lines = [f'name = "{data["name"]}"', "[table]", "width = 100.0", "depth = 100.0"]
    for u in data["units"]:
        p = u["profile"]
        prof = "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in p.items()) + " }"
        bases = (
            "["
            + ", ".join(f"{{ x = {b['x']!r}, y = {b['y']!r}, facing = {b['facing']!r} }}" for b in u["bases"])
            + "]"
        )
        lines += [
            "[[units]]",
            f'id = "{u["id"]}"',
            f'side = "{u["side"]}"',
            f"profile = {prof}",
            f"bases = {bases}",
        ]
    path = tmp_path / "t.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_5_10_cli_json_and_text(tmp_path: Path) -> None:
    f = _scenario_file(tmp_path)
    argv = ["melee", f, "--attacker", "a", "b", "--defender", "d", "--json"]
    code, out, _ = _cli(*argv)
    assert code == 0
    doc = json.loads(out)
    schema = json.loads((REPO / "schemas" / "output" / document_schema(argv)).read_text(encoding="utf-8"))
    assert document_schema(argv) == "melee-combined.schema.json"
    jsonschema.Draft202012Validator(schema).validate(doc)
    d = next(u for u in doc["units"] if u["unit"] == "d")
    assert d["removed_pmf"] == pytest.approx([1 / 6, 1 / 2, 1 / 3])
    assert d["opponents"] == ["a", "b"]
    code, out, _ = _cli("melee", f, "--attacker", "a", "b", "--defender", "d")
    assert code == 0 and "Combined melee (5.10)" in out


@pytest.mark.parametrize(
    ("argv", "code", "fragment"),
    [
        (["--attacker", "a", "a", "--defender", "d"], 2, "named twice"),
        (["--attacker", "a", "b", "--defender", "d", "a"], 2, "cannot attack and defend"),
        (["--attacker", "a", "d", "--defender", "b"], 2, "not all on one side"),
        (
            ["--attacker", "a", "b", "--defender", "d", "--plot", "{d}/m.png"],
            2,
            "--plot takes one",
        ),
        (["--attacker", "a", "far", "--defender", "d"], 1, "no melee"),
        (["--attacker", "a", "--defender", "d", "--declare-defence"], 2, "--continuing"),
        (["--attacker", "a", "--defender", "d", "--continuing", "--declare-defence"], 1, "5.7.4"),
    ],
)
def test_5_10_bad_input(tmp_path: Path, argv: list[str], code: int, fragment: str) -> None:
    f = _scenario_file(tmp_path)
    got, out, err = _cli("melee", f, *(a.replace("{d}", str(tmp_path)) for a in argv))
    assert got == code, err
    assert fragment in err
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "next.toml").exists()


def test_5_10_library_refusals() -> None:
    sc, _, _ = _load(CASES / "5_10_two_attackers_one_defender.toml")
    with pytest.raises(InvalidDataError, match="named twice"):
        combined_melee(sc, ["a", "b", "a"], ["d"])
    with pytest.raises(InvalidDataError, match="names a base"):
        combined_melee(sc, ["a/0"], ["d"])
    with pytest.raises(InvalidDataError, match="on the attackers' side"):
        combined_melee(sc, ["a"], ["d", "b"])


def test_5_10_a_named_unit_without_an_opponent_is_no_melee(tmp_path: Path) -> None:
    sc = load_scenario(_scenario_file(tmp_path))
    with pytest.raises(IllegalActionError, match="far is in contact with none"):
        combined_melee(sc, ["a", "far"], ["d"])


def test_5_7_4_defence_declared_from_the_hill(tables: Any) -> None:
    """5.7.4: in a continuing melee the unit on the hill (a, uphill of every figure it touches,
    PD-15 W + 1) declares defence: both sides then get the terrain bonus — the enemy's dice strike
    a at W + 1 — and a tests first, as the defender. Outside a continuing melee, or for d (not
    uphill), the declaration is refused."""
    hill = {"id": "hill", "kind": "hill", "polygon": [[0, 0], [40, 0], [40, 11], [0, 11]], "level": 1}
    sc = tables.scenario(
        tables.unit(
            "a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}, {"x": 12.0, "y": 10.0, "facing": 90.0}]
        ),
        tables.unit(
            "d", "B", [{"x": 10.0, "y": 12.0, "facing": 270.0}, {"x": 12.0, "y": 12.0, "facing": 270.0}]
        ),
        terrain=[hill],
    )
    plain = combined_melee(sc, ["a"], ["d"], continuing=True)
    assert {(g.side, g.target_bonus) for g in plain.groups} == {("attacker", 0), ("defender", 0)}
    held = combined_melee(sc, ["a"], ["d"], continuing=True, declare_defence=True)
    assert held.declared_defence
    assert {(g.side, g.target_bonus) for g in held.groups} == {("attacker", 0), ("defender", 1)}
    assert all(f.bonus == 1 for f in held.figures if f.unit == "a")
    # the enemy strikes a at W + 1: a loses less than without the declaration
    assert held.removed("a").mean() < plain.removed("a").mean()
    with pytest.raises(InvalidDataError, match="continuing"):
        combined_melee(sc, ["a"], ["d"], declare_defence=True)
    with pytest.raises(IllegalActionError, match=r"5\.7\.4"):
        combined_melee(sc, ["d"], ["a"], continuing=True, declare_defence=True)


def test_5_7_3_a_defending_unit_wholly_on_the_hill_is_not_engaged(tables: Any, tmp_path: Path) -> None:
    """5.7.3 in a combined melee: d1 stands wholly on the hill (every figure holds the terrain),
    d2 on the flat. Standing, d1 does not count as engaged — the odds, the JSON and the applied
    answer say so, as the melee of one unit a side does (a second reader found "engaged"); the
    two units fight with different terrain coefficients, so the text says the fights are apart
    (5.7.2), not that part of a unit holds the terrain."""
    from szwadron.cli.melee import format_combined

    hill = {"id": "hill", "kind": "hill", "polygon": [[0, 11], [20, 11], [20, 30], [0, 30]], "level": 1}
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}]),
        tables.unit("b", "A", [{"x": 30.0, "y": 10.0, "facing": 90.0}]),
        tables.unit("d1", "B", [{"x": 10.0, "y": 12.0, "facing": 270.0}]),
        tables.unit("d2", "B", [{"x": 30.0, "y": 12.0, "facing": 270.0}]),
        terrain=[hill],
    )
    m = combined_melee(sc, ["a", "b"], ["d1", "d2"])
    assert m.holds_terrain("d1") and not m.holds_terrain("d2") and not m.holds_terrain("a")
    assert {u["unit"]: u["holds_terrain"] for u in m.to_json()["units"]} == {
        "a": False,
        "b": False,
        "d1": True,
        "d2": False,
    }
    text = format_combined(m)
    d1 = text[text.index("defender d1 (against") :].splitlines()[3]
    assert "stands, not engaged (5.7.3)" in d1 and "engaged" not in d1.replace("not engaged", ""), d1
    assert "figures fight with different terrain coefficients" in text
    assert "only part of a unit" not in text


def test_6_3_6_an_opponent_outside_the_combined_melee_holds_a_unit_from_pursuit() -> None:
    """6.3.6, 5.10.5 III ("Wszyscy atakujący niezwiązani walką, których przeciwnicy uciekli") —
    the single-melee case of ``6_3_6_a_second_opponent_keeps_the_attacker_from_pursuit.toml`` with
    a second attacking unit `b` (two figures, UW 1, behind `d`) in a combined melee against `d`: `e`,
    outside the fight, still engages `a`, so `a` never pursues (without `e`, it pursues on 4-6
    whenever `d` breaks); `b`, not engaged with `e`, tests as before."""
    text = (SINGLE / "6_3_6_a_second_opponent_keeps_the_attacker_from_pursuit.toml").read_text(
        encoding="utf-8"
    )
    data = tomllib.loads(text)
    data.pop("expected"), data.pop("check")
    col = data["units"][0]
    b = {  # UW 1: b/0 scores only on a 1, so `d` is mostly left in panic, not destroyed (PD-18)
        **col,
        "id": "b",
        "profile": {**col["profile"], "UW": 1},
        "bases": [{"x": 10.0, "y": 16.0, "facing": 270.0}, {"x": 10.0, "y": 18.0, "facing": 270.0}],
    }
    with_e = parse_scenario({**data, "units": [*data["units"], b]}, source="6.3.6", folders=[])
    without = parse_scenario({**data, "units": [*data["units"][:2], b]}, source="6.3.6", folders=[])
    held = combined_melee(with_e, ["a", "b"], ["d"])
    free = combined_melee(without, ["a", "b"], ["d"])
    assert held.held_by == {"a": ("e",), "b": (), "d": ()} and free.held_by == {"a": (), "b": (), "d": ()}
    assert held.outcome("a").probability(MeleeOutcome.PURSUIT) == 0
    assert free.outcome("a").probability(MeleeOutcome.PURSUIT) > 0
    assert held.outcome("b") == free.outcome("b") and held.outcome("b").probability(MeleeOutcome.PURSUIT) > 0
