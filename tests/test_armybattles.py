"""Issue 7 — army against army (szwadron.armies.battles): rosters as forces, battles of mixed
armies, the roster check of ``points validate``, ``balance --battles`` and the army steepness.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from szwadron.armies.balance import balance
from szwadron.armies.battles import (
    STEEPNESS_EXPONENTS,
    battle_pair,
    fit_army_steepness,
    force_points,
    roster_force,
    roster_points,
    validate_rosters,
)
from szwadron.armies.duel import BattleConditions, DuelUnit, Kind, Weapon, run_army_battle, run_battle
from szwadron.armies.points import load_model
from szwadron.armies.spread import share_without_dice
from szwadron.cli import main
from szwadron.errors import InvalidDataError
from szwadron.loading import load_army_list
from szwadron.models import ArmyList, Roster

TESTLAND = Path(__file__).parent / "cases" / "armylists" / "testland.toml"


def _roster(rid: str, units: list[dict[str, object]], limit: float | None = 400) -> Roster:
    return Roster.model_validate({"id": rid, "points_limit": limit, "units": units})


def _army(army_id: str, *rosters: Roster) -> ArmyList:
    base = load_army_list(TESTLAND)
    return base.model_copy(update={"id": army_id, "rosters": rosters})


BRIGADE = [
    {"profile": "line", "figures": 10, "count": 2, "attached": [{"profile": "grenadiers", "figures": 2}]},
    {"profile": "hussars", "figures": 4},
    {"profile": "gun", "figures": 1, "attached": [{"profile": "limber", "figures": 1}]},
]


def test_roster_force_units_attachments_and_limbers_7_2() -> None:
    """1.1, 7.2 — every unit ``count`` times; an attached elite company fights inside its unit
    with its own profile; a limber adds no figure."""
    army = _army("a", _roster("r", BRIGADE))
    force = roster_force(army, army.roster("r"))
    assert [(u.profile.id, u.figures, u.elite.id if u.elite else None, u.elite_figures) for u in force] == [
        ("line", 10, "grenadiers", 2),
        ("line", 10, "grenadiers", 2),
        ("hussars", 4, None, 0),
        ("gun", 1, None, 0),
    ]
    # the roster's cost counts the limber (10) and the grenadiers at their own price
    assert roster_points(army, army.roster("r")) == 2 * (100 + 30) + 80 + 60 + 10
    assert force_points(force) == 2 * 130 + 80 + 60


def test_elite_company_fights_with_its_own_profile_1_1() -> None:
    """1.1, 4.7, 5.4.3 — an elite company inside a unit: fire at the unit removes the unit's own
    figures first; its own fire and melee use its characteristics; the unit's M and starting
    strength are the whole unit's."""
    import random

    from szwadron.armies.duel import Duel, Side

    line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    grenadiers = DuelUnit("gren", Kind.INFANTRY, 12, 3, 2, 4, 5, (Weapon("musket", 24, 1, 4),))
    side = Side(line, 12, 12, elite=grenadiers, elite_left=2)
    assert side.plain == 10 and side.wounds() == (2,) * 10 + (3,) * 2
    side.lose(9)
    assert (side.strength, side.elite_left) == (3, 2)  # the company is removed last
    side.lose(2)
    assert (side.strength, side.elite_left) == (1, 1)
    # in melee only those in contact can go: 4 of the unit's own in contact, the company in front
    side = Side(line, 12, 12, elite=grenadiers, elite_left=2)
    side.lose(5, plain_exposed=4)
    assert (side.strength, side.elite_left) == (7, 1)
    duel = Duel((Side(line, 12, 12, elite=grenadiers, elite_left=2), Side(line, 12, 12)), random.Random(1))
    mine = duel._melee_side(0)
    assert [f.melee for f in mine.fighters][-2:] == [2, 2] and mine.morale.morale == 4
    # the company adds its own dice group to the volley: 10 at C 3 and 2 at C 4
    duel.distance_cm = 10.0
    duel.log = []
    duel.fire(0)
    assert "10 dice ≤3, 2 dice ≤4" in duel.log[0]


def test_army_battle_is_seeded_and_strongest_pairing_is_run_battle() -> None:
    line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    hussars = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())
    mixed_a, mixed_b = [(line, 12), (hussars, 6), (line, 8)], [(line, 12), (line, 12)]
    first = run_army_battle(mixed_a, mixed_b, seed="s")
    assert first == run_army_battle(mixed_a, mixed_b, seed="s")
    for k in range(10):
        assert run_army_battle(
            [(line, 12), (line, 10)], [(line, 11)], seed=k, conditions=BattleConditions(pairing="strongest")
        ) == run_battle(line, (12, 10), line, (11,), seed=k)
    with pytest.raises(InvalidDataError, match="pairing"):
        run_army_battle(mixed_a, mixed_b, seed=1, conditions=BattleConditions(pairing="chosen"))  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="at least one unit"):
        run_army_battle([], mixed_b, seed=1)


def test_bigger_army_wins_more_often() -> None:
    """More of the same army wins more often: the chance rises with the points."""
    big = _army("big", _roster("r", [*BRIGADE, {"profile": "line", "figures": 12, "count": 2}], limit=None))
    small = _army("small", _roster("r", BRIGADE, limit=None))
    played = battle_pair(big, big.roster("r"), small, small.roster("r"), battles=120, seed=3)
    assert played.battles == 120 and played.rate > 0.8
    assert played.interval[0] <= played.rate <= played.interval[1]


def test_roster_check_pairs_equal_limits_of_different_lists_and_ignores_the_executor() -> None:
    a = _army("a", _roster("r", BRIGADE), _roster("big", BRIGADE, limit=2000))
    b = _army("b", _roster("r", BRIGADE))
    serial = validate_rosters([a, b], battles=40, seed=5, workers=1)
    with ThreadPoolExecutor(2) as pool:
        threaded = validate_rosters([a, b], battles=40, seed=5, executor=pool)
    assert [(serial.sides[c.a].label, serial.sides[c.b].label) for c in serial.cells] == [("a:r", "b:r")]
    assert [c.wins for c in serial.cells] == [c.wins for c in threaded.cells]
    cell = serial.cells[0]
    assert cell.predicted == 0.5  # equal points
    # a mirror match, the first mover alternating: no side is favoured by the engine
    assert 0.3 <= cell.rate <= 0.7
    doc = serial.to_json()
    assert doc["battles"] == 40 and doc["cells"][0]["a"] == "a:r" and doc["share_in_band"] in (0.0, 1.0)
    # issue 14: the share with the dice of 40 battles taken out, as share_without_dice reads the rates
    assert doc["share_in_band_without_dice"] == share_without_dice([cell.rate], 40)


def test_army_steepness_is_fitted_from_scaled_copies() -> None:
    army = _army("a", _roster("r", [*BRIGADE, {"profile": "line", "figures": 12}], limit=None))
    fit = fit_army_steepness([army], battles=30, budgets=(400.0,), armies_per_budget=2, seed=1, workers=1)
    assert fit.a > 0 and fit.b in STEEPNESS_EXPONENTS
    assert 0 < fit.battles <= 2 * 6 * 30 and fit.battles % 30 == 0  # copies of equal points are skipped
    assert fit.kappa(4.0) == pytest.approx(fit.a * 4.0**fit.b)
    assert math.isfinite(fit.loglik) and fit.loglik < 0


def test_balance_uses_the_army_steepness() -> None:
    """balance: κ for armies of u units a side is a · u^b (the model's army_steepness)."""
    army = _army("a", _roster("r", BRIGADE), _roster("s", [*BRIGADE, {"profile": "line", "figures": 4}]))
    model = replace(load_model(), army_steepness=(2.0, 0.5))
    report = balance(army, army.roster("s"), army, army.roster("r"), model)
    u = (5 + 4) / 2
    assert report.steepness == pytest.approx(2.0 * u**0.5)
    assert report.chance_a == pytest.approx(1 / (1 + (report.b.points / report.a.points) ** report.steepness))
    plain = replace(model, army_steepness=None)
    assert balance(army, army.roster("s"), army, army.roster("r"), plain).steepness == model.steepness


def test_army_steepness_in_the_model_file(tmp_path: Path) -> None:
    model = replace(load_model(), army_steepness=(1.25, 0.6))
    path = tmp_path / "m.toml"
    path.write_text(model.to_toml(), encoding="utf-8")
    assert load_model(path).army_steepness == (1.25, 0.6)
    path.write_text(
        model.to_toml().replace("army_steepness = [1.25, 0.6]", 'army_steepness = ["x", 1]'), encoding="utf-8"
    )
    with pytest.raises(InvalidDataError, match="army_steepness: expected two numbers"):
        load_model(path)
    path.write_text(
        model.to_toml().replace("army_steepness = [1.25, 0.6]", "army_steepness = [1.25, 7]"),
        encoding="utf-8",
    )
    with pytest.raises(InvalidDataError, match=r"army_steepness: expected \[a > 0, b in 0..2\]"):
        load_model(path)


def test_cli_balance_battles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "france:corps-1000", "austria:corps-1000", "--battles", "20"]) == 0
    out = capsys.readouterr().out
    assert "predicted by play: A won" in out and "of 20 seeded battles" in out
    assert "predicted chance (20 battles)" in out and "points alone predict" in out


def test_cli_balance_predicts_from_play_by_default_issue_14(capsys: pytest.CaptureFixture[str]) -> None:
    """The predicted chance comes from 1,000 seeded battles (``balance``'s default since the end of
    issue 14); --battles 0: from the points alone."""
    import json

    assert main(["balance", "france:corps-1000", "austria:corps-1000", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["battles"]["battles"] == 1000 and "seconds" not in doc["battles"]
    lo, hi = doc["battles"]["interval_a"]
    assert lo <= doc["battles"]["chance_a"] <= hi
    assert main(["balance", "france:corps-1000", "austria:corps-1000", "--battles", "0", "--json"]) == 0
    assert "battles" not in json.loads(capsys.readouterr().out)
    assert main(["balance", "france:corps-1000", "austria:corps-1000", "--battles", "-1"]) == 2
    assert "--battles must be between 0 and" in capsys.readouterr().err


def test_cli_points_battles_only_for_calibrate_and_validate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["points", "france", "--battles", "5"]) == 2
    assert "--battles applies only to 'points calibrate' and 'points validate'" in capsys.readouterr().err
    assert main(["points", "validate", "--battles", "-3"]) == 2
    assert "--battles must be between 0 and" in capsys.readouterr().err


def test_cli_validate_plays_the_rosters_and_draws_both_matrices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``points validate`` on two small lists with one roster each at the same limit: the
    profile round-robin, then the rosters army against army, in the text, the JSON and the plot."""
    import json

    lists = tmp_path / "lists"
    lists.mkdir()
    roster = (
        '\n[[rosters]]\nid = "r"\npoints_limit = 400\nunits = [ { profile = "line", figures = 10, count = 2 },'
        ' { profile = "hussars", figures = 4 } ]\n'
    )
    text = TESTLAND.read_text(encoding="utf-8")
    (lists / "a.toml").write_text(
        text.replace('id = "testland"', 'id = "aland"', 1) + roster, encoding="utf-8"
    )
    (lists / "b.toml").write_text(
        text.replace('id = "testland"', 'id = "bland"', 1) + roster, encoding="utf-8"
    )
    plot = tmp_path / "v.png"
    assert (
        main(
            [
                "points",
                "validate",
                "--lists",
                str(lists),
                "--duels",
                "1",
                "--battles",
                "8",
                "--workers",
                "1",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "army against army" in out and "aland:r" in out and "bland:r" in out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert (
        main(
            [
                "points",
                "validate",
                "--lists",
                str(lists),
                "--duels",
                "1",
                "--battles",
                "8",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["rosters"]["battles"] == 8 and doc["rosters"]["cells"][0]["a"] == "aland:r"
    # the unit-size check: each list's roster with its line regrouped at 8 and 16 (and cavalry)
    sizes = {(u["army"], u["class"], u["size"]) for u in doc["unit_sizes"]}
    assert {("aland", "line", 8), ("aland", "line", 16), ("bland", "line", 16)} <= sizes
    assert all(u["battles"] == 8 and 0 <= u["win_rate"] <= 1 for u in doc["unit_sizes"])
    assert (
        main(
            [
                "points",
                "validate",
                "--lists",
                str(lists),
                "--duels",
                "1",
                "--battles",
                "0",
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["rosters"] is None and doc["unit_sizes"] == []


def test_random_armies_spend_their_budget_and_stay_reproducible() -> None:
    """The calibration's mixed armies: random or drawn from the list's roster units, never over
    the budget, the same for the same seed."""
    import random

    from szwadron.armies.battles import mixed_battle_design, random_force, resampled_force

    army = _army("a", _roster("r", BRIGADE), _roster("s", [{"profile": "skirmishers", "figures": 6}]))
    for make in (random_force, resampled_force):
        for seed in range(20):
            force = make(army, 500.0, random.Random(seed), lambda p: p.points or 1.0)
            assert force and force_points(force) <= 500.0
            assert force == make(army, 500.0, random.Random(seed), lambda p: p.points or 1.0)
    # drawn from the rosters' own units: (profile, figures) pairs they field
    kinds = {u.key() for u in roster_force(army, army.roster("r")) + roster_force(army, army.roster("s"))}
    drawn = resampled_force(army, 2000.0, random.Random(1))
    assert {u.key() for u in drawn} <= kinds
    forces, specs = mixed_battle_design(
        [army, _army("b", _roster("r", BRIGADE))], battles=3, budgets=(400.0,)
    )
    assert len(specs) == 3 * 3 and len(forces) == 2 * len(specs)  # pairs a-a, a-b, b-b
    assert [s[2] for s in specs[:3]] == [0, 1, 0]  # the first mover alternates


def test_corrections_from_mixed_armies_are_recovered() -> None:
    """Step 4 with army battles: a world where side strength is Σ n·v·e^c and
    P(A) = σ(κ_u log(V_A/V_B)); the fit finds the c, relative to the reference figure."""
    import random

    import numpy as np

    from szwadron.armies.calibrate import ArmyObservation, duel_profiles, fit_corrections
    from szwadron.armies.points import REFERENCE_PROFILE, profile_key
    from szwadron.loading import bundled_dir

    france = load_army_list(bundled_dir("armylists") / "france.toml")
    entries = [e for e in duel_profiles([france]) if e.profile.kind is not Kind.LIMBER][:4]
    assert profile_key(entries[0].profile) == profile_key(REFERENCE_PROFILE)
    model = replace(load_model(), corrections={}, correction_members={}, army_steepness=(1.5, 0.6))
    truth = np.array([0.0, 0.25, -0.15, 0.1])
    logv = np.array([math.log(model.raw_value(e.profile)) for e in entries])
    rng = random.Random(4)
    obs = []
    for _ in range(40000):
        fa = tuple((rng.randrange(4), rng.randint(4, 12)) for _ in range(rng.randint(1, 3)))
        fb = tuple((rng.randrange(4), rng.randint(4, 12)) for _ in range(rng.randint(1, 3)))
        va = sum(n * math.exp(logv[i] + truth[i]) for i, n in fa)
        vb = sum(n * math.exp(logv[i] + truth[i]) for i, n in fb)
        units = (len(fa) + len(fb)) / 2
        p = 1 / (1 + math.exp(-model.steepness_for(units) * math.log(va / vb)))
        obs.append(ArmyObservation(fa, fb, units, 1.0 if rng.random() < p else 0.0))
    fitted = fit_corrections(entries, [], model, army_observations=obs, ridge=1.0)
    got = [fitted.corrections[profile_key(e.profile)] for e in entries]
    assert got == pytest.approx(list(truth), abs=0.05)


def test_issue7_bigger_battalions_win_more_than_their_points_so_lists_cap_them() -> None:
    """Points are per figure (docs/decisions.md "Files"), so the same figures cost the same in any unit size;
    but 6.2's casualty modifiers count from a unit's starting strength, and a big battalion's
    volley takes a bigger share of a small one. The same Russian corps with its line in
    battalions of 24 beats itself in battalions of 12, and in battalions of 6 loses: which is
    why every list caps infantry units at 12 figures (``battalion-size``)."""
    from szwadron.armies.battles import resized_force, unit_size_effect
    from szwadron.loading import bundled_dir

    russia = load_army_list(bundled_dir("armylists") / "russia.toml")
    roster = russia.roster("corps-1000")
    base = roster_force(russia, roster)
    for size in (6, 24):
        variant = resized_force(base, "line", size)
        assert force_points(variant) == pytest.approx(force_points(base))
        assert sum(u.figures for u in variant) == sum(u.figures for u in base)
    small, big = unit_size_effect(
        [(russia, roster, "line", 6), (russia, roster, "line", 24)], battles=150, workers=1
    )
    assert (small.units_before, small.units_after, big.units_after) == (5, 10, 3)
    assert small.interval[1] < 0.45 and big.interval[0] > 0.55
    assert big.to_json()["size"] == 24 and big.to_json()["win_rate"] == big.rate
    with pytest.raises(InvalidDataError, match="unit size"):
        resized_force(base, "line", 0)
