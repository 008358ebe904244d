"""6.7.4, 6.7.5, 3.1.3 — an uncontrolled pursuit goes round own units and closed ground.

"Jednostki oddziału w niekontrolowanym pościgu muszą dojść do nieprzyjaciela by doprowadzić do
walki wręcz lub wykorzystać w pełni ruch by się do niego zbliżyć" (6.7.4), "najkrótszą drogą"
(6.7.5), and "Figurki nie mogą się poruszać przez inne własne figurki" (3.1.3): a pursuing figure
whose straight way is barred by an own unit or closed ground takes the shortest way round it
(``szwadron.table.pursuit``), as far as its rolled distance allows; an enemy on the way still
stops it (6.7.5). Known answers in ``tests/cases/pursuit_round/``, worked by hand; the planner is
checked against the grid planner of ``szwadron reach`` on random tables."""

from __future__ import annotations

import json
import math
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import shapely

from szwadron.cli import main
from szwadron.game.apply import apply_morale, position_from_text
from szwadron.geometry.bases import base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.terrain import forbidden_rule, terrain_shapes
from szwadron.models import Scenario, Unit
from szwadron.table.audit import audit, engaged_with_bases
from szwadron.table.pursuit import along, pursuit_way
from szwadron.table.reach import reach

HERE = Path(__file__).parent / "cases" / "pursuit_round"
CASES = sorted(HERE.glob("*.toml"))
INF = {"id": "inf", "name": "Line", "kind": "infantry", "R": 40, "W": 2, "SW": 1, "SO": 1, "Z": 24}
INF |= {"UW": 3, "C": 3, "M": 4}
CAV = INF | {"id": "hus", "kind": "cavalry"}


def _bases(unit: Unit) -> list[shapely.Polygon]:
    return [
        shapely.Polygon(base_corners(b.x, b.y, b.facing, *unit.base_size(i)))
        for i, b in enumerate(unit.bases)
    ]


def _load(name: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A case: the position's text (before its ``[case]``), the case and what is expected."""
    text = (HERE / name).read_text(encoding="utf-8")
    assert text.startswith("# Rule"), f"{name}: cite the rule"
    data = tomllib.loads(text)
    return text[: text.index("\n[case]")] + "\n", data["case"], data["expected"]


def _pursue(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Scenario, Scenario, str, dict[str, Any], list[str]]:
    """Apply a case: the morale phase (``side``) or ``szwadron melee --apply --pursue`` with typed
    dice (``melee``: attacker, defender). The position before and after, the pursuer, its pursuit's
    roll record and the notes."""
    text, case, _want = _load(name)
    before = position_from_text(text, name).scenario
    if "side" in case:
        applied = apply_morale(position_from_text(text, name), case["side"], dice=case["dice"])
        after_text, rolls, notes = applied.text, applied.dice["rolls"], list(applied.notes)
        pursuer = next(u.id for u in before.units if u.state.value == "pursuit")
    else:
        attacker, defender = case["melee"]
        scen, out = tmp_path / "melee.toml", tmp_path / "next.toml"
        scen.write_text(text, encoding="utf-8")
        dice = ",".join(map(str, case["dice"]))
        args = ["melee", str(scen), "--attacker", attacker, "--defender", defender, "--apply", "--pursue"]
        assert main([*args, "--dice", dice, "-o", str(out), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        after_text, rolls, notes = out.read_text(encoding="utf-8"), doc["dice"]["after"], doc["notes"]
        pursuer = attacker
    roll = next(r for r in rolls if r["test"] == "pursuit" and r["unit"] == pursuer)
    return before, position_from_text(after_text, "next").scenario, pursuer, roll, notes


def _way(scen: Scenario, pursuer: str, k: int) -> Any:
    """The way round of figure ``k`` of ``pursuer`` as the move plans it: round the other own
    units and the ground closed to it, into contact with the unit it pursues."""
    unit = scen.unit(pursuer)
    assert unit.pursuing is not None or unit.state.value != "pursuit"
    target = scen.unit(unit.pursuing) if unit.pursuing else next(u for u in scen.units if u.side != unit.side)
    friends = [p for u in scen.units if u.side == unit.side and u.id != unit.id for p in _bases(u)]
    friends += [t.polygon for t in terrain_shapes(scen.terrain) if forbidden_rule(unit.profile.kind, t)]
    b = unit.bases[k]
    table = (scen.table.width, scen.table.depth)
    return pursuit_way((b.x, b.y), b.facing, unit.base_size(k), _bases(target), friends, table, scen.settings)


def _check(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Scenario, Scenario, str]:
    """Apply case ``name`` and check what it expects; the positions before and after, the pursuer."""
    _text, _case, want = _load(name)
    before, after, pursuer, roll, notes = _pursue(name, tmp_path, capsys)
    assert roll["contact"] is want["reaches"]
    assert roll.get("round", []) == want["round"]  # the record says which figures went round
    went_round = [n for n in notes if "round own units or closed ground (3.1.3)" in n]
    assert len(went_round) == (1 if want["round"] else 0)
    got = [v for b in after.unit(pursuer).bases for v in (b.x, b.y)]
    assert got == pytest.approx([v for xy in want["unit_xy"] for v in xy], abs=1e-5)
    bf = Battlefield(after)
    target = after.unit(pursuer).pursuing
    assert (target in engaged_with_bases(bf, bf.unit_bases(pursuer))) is want["engaged"]
    rules = {p.rule for p in audit(bf).problems}
    assert "PD-3" not in rules  # on no other base (3.1.3)
    assert not rules & {"3.2.4", "3.2.5"}  # in no closed ground
    return before, after, pursuer


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_6_7_4_pursuit_round_known_answers(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each case: reaches or not, which figures went round, where they end, engaged or not, no
    figure on another or in closed ground; and each way round as long as the hand measured it."""
    before, _after, pursuer = _check(path.name, tmp_path, capsys)
    for k, cm in _load(path.name)[2].get("way_cm", []):
        assert _way(before, pursuer, k).length == pytest.approx(cm, abs=1e-6)


def test_6_7_4_pursuit_goes_round_a_friendly_unit_and_reaches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The own line across the straight way used to stop the pursuer at y 36; it goes round the
    line's left end and comes into edge contact, by the way a hand measures:
    sqrt(4² + 6²) + 4 + sqrt(4² + 8²) cm through the corners (45, 36) and (45, 40)."""
    before, after, pursuer = _check("6_7_4_round_a_friendly_line_and_reaches.toml", tmp_path, capsys)
    way = _way(before, pursuer, 0)
    flat = [v for xy in way.points for v in xy]
    assert flat == pytest.approx([49.0, 30.0, 45.0, 36.0, 45.0, 40.0, 49.0, 48.0], abs=1e-9)
    assert way.length == pytest.approx(math.hypot(4, 6) + 4 + math.hypot(4, 8), abs=1e-9)
    assert after.unit(pursuer).engaged_with == ("e",)


def test_6_7_1_pursuit_at_once_after_a_melee_goes_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``szwadron melee --apply`` (6.7.1: the pursuit at once, ``immediate``): the figure whose
    straight way an own figure bars goes round it, 4 + sqrt(5) cm, and reaches; the note says
    the melee is fought in the next morale phase, and that the way went round."""
    _check("6_7_1_at_once_after_a_melee_round_a_friend.toml", tmp_path, capsys)
    _b, _a, _p, _roll, notes = _pursue("6_7_1_at_once_after_a_melee_round_a_friend.toml", tmp_path, capsys)
    assert any("round own units" in n and "next morale phase" in n for n in notes)


def test_6_7_4_a_way_round_too_long_uses_the_whole_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """16 cm of a 20.1554 cm way round: the figure ends 16 cm along the way (not short of it),
    nearer the enemy than it stood, touching nothing."""
    before, after, pursuer = _check("6_7_4_the_way_round_too_long.toml", tmp_path, capsys)
    way = _way(before, pursuer, 0)
    end = after.unit(pursuer).bases[0]
    assert (end.x, end.y) == pytest.approx(along(way.points, 16.0), abs=1e-6)
    enemy = _bases(after.unit("e"))[0]
    start, there = _bases(before.unit(pursuer))[0], _bases(after.unit(pursuer))[0]
    assert shapely.distance(there, enemy) < shapely.distance(start, enemy)
    others = [p for u in after.units if u.id != pursuer for p in _bases(u)]
    assert min(shapely.distance(there, o) for o in others) > 0.5


def test_6_7_5_a_clear_straight_way_is_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Where no own unit bars the straight way, the figure slides straight into contact as before
    (18 cm up), no roll record says it went round, and the note is the straight pursuit's."""
    _before, after, pursuer = _check("6_7_4_a_clear_straight_way_is_unchanged.toml", tmp_path, capsys)
    _b, _a, _p, roll, notes = _pursue("6_7_4_a_clear_straight_way_is_unchanged.toml", tmp_path, capsys)
    assert "round" not in roll
    assert "p pursues e 22 cm and reaches it: the melee (6.7.3) is fought in this phase" in notes
    assert after.unit(pursuer).bases[0].x == 49.0


def test_6_7_5_an_enemy_on_the_way_still_stops_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An enemy unit across the straight way is not gone round: the figure stops touching it
    (6.7.5: it may be attacked), as before; one on the way round stops it there too."""
    _check("6_7_5_an_enemy_on_the_way_still_stops_it.toml", tmp_path, capsys)
    _b, after, pursuer = _check("6_7_5_an_enemy_on_the_way_round_stops_it.toml", tmp_path, capsys)
    here, enemy = _bases(after.unit(pursuer))[0], _bases(after.unit("g"))[0]
    assert shapely.distance(here, enemy) == 0.0
    assert shapely.intersection(here, enemy).area <= after.settings.overlap_tolerance_cm**2 + 1e-12


def test_3_1_3_ranks_go_round_and_close_up(tmp_path: Path) -> None:
    """A pursuing block of four behind the own line: every figure goes round it (3.1.3), the
    nearest first; whatever the dice, no figure ends on another or on the line, and each ends no
    further along its way than its roll."""
    text, _case, _want = _load("6_7_4_round_a_friendly_line_and_reaches.toml")
    text = text.replace(
        "bases = [ { x = 49.0, y = 30.0, facing = 90.0 } ]",
        "bases = [ { x = 48.0, y = 30.0, facing = 90.0 }, { x = 50.0, y = 30.0, facing = 90.0 }, "
        "{ x = 48.0, y = 28.0, facing = 90.0 }, { x = 50.0, y = 28.0, facing = 90.0 } ]",
    )
    text = text.replace(
        "bases = [ { x = 50.0, y = 50.0, facing = 270.0 } ]",
        "bases = [ { x = 50.0, y = 50.0, facing = 270.0 }, { x = 52.0, y = 50.0, facing = 270.0 } ]",
    )
    pos = position_from_text(text, "ranks")
    for pips in ((1, 1), (2, 2), (4, 3), (6, 6)):
        applied = apply_morale(pos, "A", dice=[6, *pips])
        roll = next(r for r in applied.dice["rolls"] if r["test"] == "pursuit")
        assert roll["round"] == [0, 1, 2, 3]
        after = position_from_text(applied.text, "next").scenario
        assert "PD-3" not in {p.rule for p in audit(Battlefield(after)).problems}
        for k, b in enumerate(after.unit("p").bases):
            start = pos.scenario.unit("p").bases[k]
            assert math.hypot(b.x - start.x, b.y - start.y) <= roll["cm"] + 1e-6
    assert roll["contact"] is True  # 24 cm: the front rank reaches


def _random_table(rng: random.Random) -> Scenario | None:
    """A pursuer, one to three own lines about the way and a pursued pair of figures; None when
    two bases overlap."""
    facing = rng.choice([90.0, 0.0, 180.0, 270.0])
    units: list[dict[str, Any]] = [
        {
            "id": "p",
            "side": "A",
            "profile": CAV if rng.random() < 0.5 else INF,
            "bases": [{"x": 40 + rng.uniform(-3, 3), "y": 30.0, "facing": facing}],
        }
    ]
    for j in range(rng.randint(1, 3)):
        x, y, across = 30 + rng.uniform(0, 20), 36 + rng.uniform(0, 10), rng.random() < 0.5
        n = rng.randint(2, 5)
        bases = [{"x": x + 2 * i * across, "y": y + 2 * i * (not across), "facing": 90.0} for i in range(n)]
        units.append({"id": f"f{j}", "side": "A", "profile": INF, "bases": bases})
    x, y = 40 + rng.uniform(-8, 8), 52 + rng.uniform(-3, 3)
    pair = [{"x": x, "y": y, "facing": 270.0}, {"x": x + 2, "y": y, "facing": 270.0}]
    units.append({"id": "e", "side": "B", "profile": INF, "bases": pair})
    scen = Scenario.model_validate({"name": "random", "table": {"width": 100, "depth": 100}, "units": units})
    polys = [p for u in scen.units for p in _bases(u)]
    if any(shapely.intersection(a, b).area > 1e-9 for i, a in enumerate(polys) for b in polys[i + 1 :]):
        return None
    return scen


def test_6_7_5_the_way_round_is_the_shortest_against_the_grid_planner() -> None:
    """Fast code against a reference: on random tables (seeded) with no enemy but the pursued unit
    and no terrain, ``szwadron reach`` plans the same way (round every other figure into edge
    contact, facing kept) on a grid, pulled tight, at most 2.7 % longer than the shortest. The
    exact way round is never longer than the grid's, nor more than 3 % shorter; sampled every
    0.1 cm, its base overlaps no own base; and it ends in edge contact (PD-14)."""
    rng = random.Random(20260601)
    compared = turned = 0
    while compared < 12:
        scen = _random_table(rng)
        if scen is None:
            continue
        way = _way(scen, "p", 0)
        grid = reach(scen, "p", "e")
        if way is None or grid.path_cm is None:
            continue
        compared += 1
        turned += len(way.points) > 2
        assert grid.path_cm / 1.03 <= way.length <= grid.path_cm + 1e-6
        unit = scen.unit("p")
        b = unit.bases[0]
        friends = [p for u in scen.units if u.id.startswith("f") for p in _bases(u)]
        for i in range(int(way.length / 0.1) + 1):
            x, y = along(way.points, min(i * 0.1, way.length))
            base = shapely.Polygon(base_corners(x, y, b.facing, *unit.base_size(0)))
            assert max(shapely.intersection(base, f).area for f in friends) < 1e-6
        end = shapely.Polygon(base_corners(*way.points[-1], b.facing, *unit.base_size(0)))
        aims = shapely.union_all(_bases(scen.unit("e")))
        touch = shapely.length(shapely.intersection(shapely.boundary(end), shapely.buffer(aims, 1e-6)))
        assert touch >= scen.settings.min_contact_length_cm - 1e-6
    assert turned >= 4  # ways that go round, not only straight slides


def test_6_7_4_a_figure_that_cannot_meet_an_edge_goes_round_until_it_touches() -> None:
    """PD-14 with the facing kept: a hussar turned 45° cannot meet the pursued figure's edges
    (none parallel to its own), so its straight pursuit ends at a corner; round an own line, its
    way ends where its base first touches the pursued figure, overlapping nothing."""
    aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 2.0, 2.0))
    line = shapely.box(44.0, 37.0, 56.0, 39.0)
    way = pursuit_way((49.0, 30.0), 45.0, (2.0, 4.0), [aim], [line], (100.0, 100.0))
    assert way is not None and len(way.points) > 2
    end = shapely.Polygon(base_corners(*way.points[-1], 45.0, 2.0, 4.0))
    assert shapely.distance(end, aim) < 1e-9 and shapely.intersection(end, aim).area < 1e-9
    for i in range(int(way.length / 0.1) + 1):
        x, y = along(way.points, min(i * 0.1, way.length))
        assert shapely.intersection(shapely.Polygon(base_corners(x, y, 45.0, 2.0, 4.0)), line).area < 1e-6


def _ring(gap: float, rng: random.Random | None = None) -> list[shapely.Polygon]:
    """Own bases 4 × 2 cm on a square round (50, 50), 24 cm a side, ``gap`` cm apart (each gap
    drawn from 0.5 to ``gap`` with ``rng``), the last of a side at its end (the sides meet)."""
    out: list[shapely.Polygon] = []
    for side in range(4):
        starts, t = [], 0.0
        while t + 4.0 < 20.0:
            starts.append(t)
            t += 4.0 + (rng.uniform(0.5, gap) if rng else gap)
        for t in [*starts, 20.0]:  # the last closes the side (its gap less than the others')
            lo, hi = -12.0 + t, -12.0 + t + 4.0
            box = [
                (lo, -13.0, hi, -11.0),
                (11.0, lo, 13.0, hi),
                (lo, 11.0, hi, 13.0),
                (-13.0, lo, -11.0, hi),
            ][side]
            out.append(shapely.box(50 + box[0], 50 + box[1], 50 + box[2], 50 + box[3]))
    return out


def test_6_7_5_a_pursued_figure_ringed_by_own_figures_has_no_way_found_without_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3.1.3, 6.7.5 — a pursued figure inside a ring of own bases whose gaps (1 cm) are narrower
    than the pursuer's base has no way into contact. The clear ground of the whole table, worked
    out once among the same blockers, says so before any search (the search itself, every corner
    of the ring seen from every other, took 13 s for a unit of the morale benchmark); with that
    check turned off, the search finds no way either."""
    from szwadron.table import pursuit

    aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 4.0, 2.0))
    ring = _ring(1.0)
    calls: list[bool] = []
    real = pursuit._Plan._cut_off_anywhere

    def spy(self: Any, start: tuple[float, float]) -> bool:
        calls.append(real(self, start))
        return calls[-1]

    monkeypatch.setattr(pursuit._Plan, "_cut_off_anywhere", spy)
    assert pursuit_way((20.0, 50.0), 90.0, (4.0, 2.0), [aim], ring, (100.0, 100.0)) is None
    assert calls == [True]
    monkeypatch.setattr(pursuit._Plan, "_cut_off_anywhere", lambda *_: False)
    assert pursuit_way((20.0, 50.0), 90.0, (4.0, 2.0), [aim], ring, (100.0, 100.0)) is None


def test_6_7_5_the_clear_ground_check_changes_no_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fast code against the search alone: rings with gaps drawn from 0.5 to 1.5 cm (no 4 × 2 cm
    base passes) or to 6 cm (most let one through), round a pursued figure, the pursuer outside at a random place and
    facing: the way (or no way) is the same, point for point, with the whole-table check of the
    clear ground and without it."""
    from szwadron.table import pursuit

    rng = random.Random(20261128)
    found = none = 0
    for _ in range(24):
        ring = _ring(rng.choice([1.5, 6.0]), rng)
        aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 4.0, 2.0))
        angle = rng.uniform(0.0, 2.0 * math.pi)
        start = (50.0 + 30.0 * math.cos(angle), 50.0 + 30.0 * math.sin(angle))
        facing = rng.choice([0.0, 90.0, 180.0, 270.0])
        args = (start, facing, (4.0, 2.0), [aim], ring, (100.0, 100.0))
        with_check = pursuit_way(*args)
        with monkeypatch.context() as m:
            m.setattr(pursuit._Plan, "_cut_off_anywhere", lambda *_: False)
            without = pursuit_way(*args)
        assert with_check == without
        found += with_check is not None
        none += with_check is None
    assert found >= 4 and none >= 4  # both kinds of ring drawn
