"""Issue 7 — the points model (szwadron.armies.points) and its calibration (szwadron.armies.calibrate).

- values from the exact odds engine, with hand-computed answers (4.5.4, 4.6, 5.3, 6.2);
- the stored points of the bundled army lists are the model's (the staleness test: it recomputes
  from the stored coefficients, no duels);
- the TOML line editor that writes them;
- calibration and validation: reproducible from a seed, independent of the executor.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from szwadron.armies.calibrate import (
    CalibrationConfig,
    Observation,
    calibrate,
    duel_profiles,
    fit_corrections,
    fit_logistic,
    fit_model,
    floor_dominated,
    regenerate,
    roster_costs,
    run_duels,
    validate,
    wilson_interval,
)
from szwadron.armies.points import (
    REFERENCE_PROFILE,
    dominates,
    load_model,
    model_from_mapping,
    price_profile,
    profile_key,
    profile_values,
    set_points_in_text,
    stale_points,
)
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import ArmyList, Kind, Profile
from szwadron.odds.morale import casualty_modifier

LISTS = sorted(bundled_dir("armylists").glob("*.toml"))
TESTLAND = Path(__file__).parent / "cases" / "armylists" / "testland.toml"


_CODES = {
    "R": "move",
    "W": "wounds",
    "SW": "melee",
    "SO": "fire",
    "Z": "range",
    "UW": "melee_skill",
    "C": "accuracy",
    "M": "morale",
}


def _profile(**kw: object) -> Profile:
    data = REFERENCE_PROFILE.model_dump()
    data.update({_CODES.get(k, k): v for k, v in kw.items()})
    return Profile.model_validate(data)


# --- values (4.5.4, 4.6, 5.3, 6.2) -------------------------------------------------------------
def test_fire_value_of_the_reference_4_5_4_and_4_6() -> None:
    """SO 1, C 3, Z 24 against W 2: 1/4 figure a volley at 0–15 cm, C 2 at 20 cm (1/6), nothing
    beyond 24 cm; averaged over 0, 5, …, 40 cm."""
    expected = (4 * Fraction(1, 4) + Fraction(1, 6)) / 9
    assert profile_values(REFERENCE_PROFILE).fire == pytest.approx(float(expected), abs=1e-12)


def test_melee_value_5_3_and_skirmish_halving_7_5() -> None:
    assert profile_values(_profile(SW=2, UW=4)).melee == pytest.approx(2 * 4 / 6 / 2)
    # 12 skirmishers: 12 SW halved to 6 dice, ≤ 2 on a d6, against W 2
    sk = _profile(UW=2, abilities=["skirmish"])
    assert profile_values(sk).melee == pytest.approx(6 * 2 / 6 / 2 / 12)


def test_morale_value_6_2_counts_tests_passed_before_the_first_failure() -> None:
    def by_hand(m: int) -> float:
        total, alive = 0.0, 1.0
        for lost in range(1, 12):
            left = 12 - lost
            alive *= min(max(m + casualty_modifier(left, 12), 0), 6) / 6
            total += alive
        return total

    for m in range(7):
        assert profile_values(_profile(M=m)).morale == pytest.approx(by_hand(m))


def test_limbered_speed_7_2() -> None:
    gun = _profile(kind="foot_artillery", R=4, move_limbered=12)
    assert profile_values(gun).speed == 12.0


# --- the formula ---------------------------------------------------------------------------------
def test_reference_figure_costs_the_reference_points() -> None:
    model = load_model()
    b = price_profile(REFERENCE_PROFILE, model)
    assert b.points == model.reference_points
    assert all(t.factor == pytest.approx(1.0) for t in b.terms)


@pytest.mark.parametrize(
    "better",
    [{"W": 3}, {"M": 5}, {"C": 4}, {"SO": 2}, {"Z": 30}, {"UW": 4}],
    ids=["W", "M", "C", "SO", "Z", "UW"],
)
def test_a_better_characteristic_never_costs_less(better: dict[str, int]) -> None:
    model = load_model()
    assert model.raw_value(_profile(**better)) >= model.raw_value(REFERENCE_PROFILE)


def test_breakdown_adds_up_to_the_points() -> None:
    model = load_model()
    for path in LISTS:
        for p in load_army_list(path).profiles:
            b = price_profile(p, model)
            assert b.base + sum(t.points for t in b.terms) + b.rounding == pytest.approx(b.points)
            assert b.points == model.points(p)


def test_limbers_cost_nothing_7_2() -> None:
    model = load_model()
    army = load_army_list(bundled_dir("armylists") / "france.toml")
    assert model.points(army.profile("limber")) == 0.0
    assert price_profile(army.profile("limber"), model).terms == ()


def test_rounding_to_the_step() -> None:
    model = replace(load_model(), step=0.1)
    assert model.round(9.34) == 9.3 and model.round(0.01) == 0.1 and model.round(0.0) == 0.0


# --- the stored points (staleness) ----------------------------------------------------------------
@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_stored_points_are_the_models(path: Path) -> None:
    """Issue 7: the army lists' ``points`` are the model's output from the stored coefficients;
    if this fails, run ``szwadron points calibrate`` (or revert the hand edit)."""
    problems = stale_points(load_army_list(path), load_model())
    assert not problems, "\n".join(map(str, problems))


def test_stale_points_are_found() -> None:
    army = load_army_list(bundled_dir("armylists") / "france.toml")
    line = army.profile("line_infantry")
    edited = army.model_copy(
        update={
            "profiles": tuple(
                p.model_copy(update={"points": 99.0}) if p is line else p for p in army.profiles
            )
        }
    )
    stale = stale_points(edited, load_model())
    assert [(s.profile, s.stored) for s in stale] == [("line_infantry", 99.0)]


def test_example_rosters_spend_their_limits() -> None:
    """Issue 7: example rosters at 1,000 and 2,000 points are equal armies only if they spend
    them: every one costs between 99 % and 100 % of its limit at the stored points."""
    armies = [load_army_list(p) for p in LISTS]
    model = load_model()
    for army, roster, cost, limit, share in roster_costs(armies, model.points):
        assert limit is not None and 0.99 * limit <= cost <= limit, (army, roster, cost)
        assert share <= 0.2, (army, roster)  # artillery-fifth of every list


def test_model_file_errors_name_the_field() -> None:
    with pytest.raises(InvalidDataError, match=r"exponents\.morale: missing"):
        model_from_mapping(
            {"melee_weight": 1, "reference_points": 9, "exponents": {"offence": 1, "wounds": 1, "speed": 1}}
        )
    with pytest.raises(InvalidDataError, match="melee_weight: expected a number"):
        model_from_mapping({"melee_weight": "x", "reference_points": 9})
    with pytest.raises(InvalidDataError, match="no such file"):
        load_model("/nonexistent/points_model.toml")


# --- the TOML line editor -----------------------------------------------------------------------
def test_editor_inserts_and_replaces_points_lines_only() -> None:
    text = (LISTS[0]).read_text(encoding="utf-8")
    army = load_army_list(LISTS[0])
    prices = {p.id: float(i) + 0.5 for i, p in enumerate(army.profiles)}
    new = set_points_in_text(text, prices)
    changed = [ln for ln in new.splitlines() if ln not in text.splitlines()]
    assert all(ln.startswith("points = ") for ln in changed)
    assert set_points_in_text(new, prices) == new  # idempotent
    again = set_points_in_text(new, {army.profiles[0].id: 7})
    assert "points = 7" in again and len(again.splitlines()) == len(new.splitlines())


def test_editor_keeps_comments_and_inserts_after_morale() -> None:
    text = '# top\n[[profiles]]\nid = "a"   # the id\nmorale = 4              # M\n\n[[rosters]]\nid = "r"\n'
    out = set_points_in_text(text, {"a": 12.5})
    assert out == text.replace(
        "# M\n", "# M\npoints = 12.5           # per figure: szwadron points calibrate\n"
    )
    out2 = set_points_in_text(out.replace("# per figure: szwadron points calibrate", "# mine"), {"a": 3})
    assert "points = 3              # mine" in out2  # the comment column stays


def test_editor_refuses_unknown_profiles() -> None:
    with pytest.raises(InvalidDataError, match="'zouaves'"):
        set_points_in_text('[[profiles]]\nid = "a"\nmorale = 4\n', {"zouaves": 1})


# --- calibration and validation (small: the real runs are `szwadron points calibrate/validate`) ---
def _two_lists() -> list[ArmyList]:
    return [load_army_list(bundled_dir("armylists") / "britain.toml"), load_army_list(TESTLAND)]


def test_duel_profiles_merge_equal_characteristics() -> None:
    armies = [load_army_list(p) for p in LISTS]
    entries = duel_profiles(armies)
    labels = [m for e in entries for m in e.members]
    assert (
        len(labels)
        == len(set(labels))
        == sum(1 for a in armies for p in a.profiles if p.kind is not Kind.LIMBER)
    )
    line = next(e for e in entries if "france:line_infantry" in e.members)
    assert "austria:line_infantry" in line.members


def test_duels_do_not_depend_on_the_executor() -> None:
    """Seeds are per duel: in-process, a thread pool with tiny tasks, and a process pool agree."""
    entries = duel_profiles(_two_lists())[:4]
    profiles = [e.profile for e in entries]
    specs = [
        (i, j, 6, 5, k % 2, f"t:{i}:{j}:{k}") for i in range(4) for j in range(i + 1, 4) for k in range(5)
    ]
    serial = run_duels(profiles, specs, workers=1)
    with ThreadPoolExecutor(3) as pool:
        threaded = run_duels(profiles, specs, executor=pool, task_size=4)
    assert serial == threaded
    assert run_duels(profiles, specs[:6], workers=2, task_size=2) == serial[:6]


def test_calibration_is_reproducible_and_fits() -> None:
    armies = _two_lists()
    config = CalibrationConfig(
        seed=7, rounds=1, duels_per_pair=6, army_battles=3, mixed_battles=3, mixed_rounds=1
    )
    first = calibrate(armies, config, workers=1)
    second = calibrate(armies, config, workers=1)
    assert first.model == second.model and first.duels == second.duels > 0
    assert first.model.steepness > 0  # more figures win more often


def test_fit_recovers_known_values() -> None:
    """A logistic world with known coefficients: the regression finds them (step 3 of the method)."""
    import random

    rng = random.Random(1)
    entries = duel_profiles(_two_lists())[:3]
    coef_true = [2.0, 0.8]
    rows, ys = [], []
    for _ in range(4000):
        row = [rng.uniform(-1, 1), rng.uniform(-1, 1)]
        p = 1 / (1 + math.exp(-(coef_true[0] * row[0] + coef_true[1] * row[1])))
        rows.append(row)
        ys.append(1.0 if rng.random() < p else 0.0)
    coef, _ = fit_logistic(rows, ys)
    assert coef == pytest.approx(coef_true, abs=0.15)
    # the model fit on real features: more figures win, so κ comes out positive
    obs = [
        Observation(0, 1, 10, 10, 1.0),
        Observation(0, 1, 10, 10, 0.0),
        Observation(0, 2, 12, 6, 1.0),
        Observation(1, 2, 6, 12, 0.0),
        Observation(0, 2, 6, 12, 0.0),
        Observation(1, 2, 12, 6, 1.0),
    ]
    fit = fit_model(entries, obs, reference_points=10.0, grid=(1.0,))
    assert fit.model.steepness > 0 and fit.duels == 6


def test_duel_corrections_are_recovered_from_a_known_world() -> None:
    """Step 4 of the method: battles drawn from a logistic world where two profiles are worth
    e^0.3 and e^-0.2 of their formula price; the fit finds both, relative to the reference
    figure (whose correction is 0), and writes them under the profiles' keys."""
    import random

    rng = random.Random(11)
    armies = [load_army_list(bundled_dir("armylists") / "france.toml")]
    entries = [e for e in duel_profiles(armies) if e.profile.kind is Kind.INFANTRY][:3]
    assert profile_key(entries[0].profile) == profile_key(REFERENCE_PROFILE)
    model = replace(load_model(), corrections={}, correction_members={})
    truth = [0.0, 0.3, -0.2]
    logv = [math.log(model.raw_value(e.profile)) for e in entries]
    obs = []
    for _ in range(30000):
        a, b = rng.sample(range(3), 2)
        na, nb = rng.randint(6, 14), rng.randint(6, 14)
        z = model.steepness * (math.log(na / nb) + logv[a] + truth[a] - logv[b] - truth[b])
        obs.append(Observation(a, b, na, nb, 1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0))
    fitted = fit_corrections(entries, obs, model)
    got = [fitted.corrections[profile_key(e.profile)] for e in entries]
    assert got == pytest.approx(truth, abs=0.05)
    assert got[0] == 0.0  # relative to the reference figure
    assert fitted.correction_members[profile_key(entries[1].profile)] == entries[1].members
    assert fitted.raw_value(entries[1].profile) == pytest.approx(
        model.raw_value(entries[1].profile) * math.exp(got[1])
    )


@pytest.mark.parametrize(
    ("better", "worse", "expected"),
    [
        ({"M": 5}, {}, True),
        ({"W": 3, "Z": 30}, {}, True),
        ({"M": 5, "C": 2}, {}, False),  # better morale, worse accuracy: neither dominates
        ({}, {}, False),  # the same figure does not dominate itself
        ({"kind": "horse_artillery", "R": 20}, {"kind": "foot_artillery", "R": 10}, True),
        ({"kind": "horse_artillery", "R": 10}, {"kind": "foot_artillery", "R": 10}, True),
        ({"kind": "foot_artillery", "R": 20}, {"kind": "horse_artillery", "R": 10}, False),
        ({"kind": "cavalry", "R": 24}, {}, False),  # another kind of figure
        ({"M": 5, "abilities": ["heavy"]}, {}, False),  # other abilities
    ],
    ids=[
        "morale",
        "two",
        "mixed",
        "same",
        "horse-artillery",
        "horse-equal-move",
        "foot-over-horse",
        "kind",
        "ability",
    ],
)
def test_dominance_every_characteristic_at_least_as_good(
    better: dict[str, object], worse: dict[str, object], expected: bool
) -> None:
    """A figure as good in every characteristic (R, W, SW, SO, Z, UW, C, M; horse artillery over
    foot artillery: 6.6.2, 6.7) and better in one dominates; issue 14."""
    assert dominates(_profile(**better), _profile(**worse)) is expected


def test_the_fit_never_prices_a_dominating_profile_below_the_one_it_dominates() -> None:
    """Issue 14: corrections out of order are put in order: the better profile raised to the
    worse one's value or, when the better one is the reference figure (whose points fix the
    scale), the worse one lowered to it; pairs in order are left alone."""
    armies = [load_army_list(bundled_dir("armylists") / "austria.toml")]
    wanted = ("line_infantry", "grenadiers", "landwehr", "brigade_battery", "cavalry_battery")
    by_id = {e.members[0].split(":")[1]: e for e in duel_profiles(armies)}
    entries = [by_id[k] for k in wanted]
    model = replace(load_model(), corrections={}, correction_members={})
    logv = np.array([math.log(model.raw_value(e.profile)) for e in entries])

    def settle(shift: dict[str, float], ref: str) -> dict[str, float]:
        """Each profile's log-value after the floor, the fit's own being its formula's + shift."""
        c = np.array([shift.get(k, 0.0) for k in wanted])
        got = floor_dominated(entries, logv, c, profile_key(by_id[ref].profile)) + logv
        return dict(zip(wanted, got, strict=True))

    formula = dict(zip(wanted, logv, strict=True))
    gap = formula["grenadiers"] - formula["line_infantry"]
    guns = formula["brigade_battery"] - formula["cavalry_battery"]
    # grenadiers worth 0.1 less than the line, horse guns 0.2 below the foot battery's
    out = settle({"grenadiers": -gap - 0.1, "cavalry_battery": guns - 0.2}, "line_infantry")
    assert out["line_infantry"] == pytest.approx(formula["line_infantry"])  # the reference stays
    assert out["grenadiers"] == pytest.approx(out["line_infantry"])  # raised to the line
    assert out["cavalry_battery"] == pytest.approx(out["brigade_battery"])  # raised to the foot battery
    assert out["brigade_battery"] == pytest.approx(formula["brigade_battery"])
    assert out["landwehr"] == pytest.approx(formula["landwehr"])  # in order already
    # the grenadiers the reference: the line above them is lowered instead
    out = settle({"grenadiers": -gap - 0.1}, "grenadiers")
    assert out["grenadiers"] == pytest.approx(formula["grenadiers"] - gap - 0.1)
    assert out["line_infantry"] == pytest.approx(out["grenadiers"])
    # in order: nothing moves
    shift = {"grenadiers": 0.05, "landwehr": -0.3, "cavalry_battery": guns + 0.1}
    out = settle(shift, "line_infantry")
    assert [out[k] for k in wanted] == pytest.approx([formula[k] + shift.get(k, 0.0) for k in wanted])


@pytest.mark.parametrize("path", LISTS, ids=[p.stem for p in LISTS])
def test_no_stored_profile_costs_less_than_one_it_dominates(path: Path) -> None:
    """Issue 14: a figure as good in every characteristic as another of its list, and better in
    one, costs at least as much (the horse artillery and the foot battery with the same guns)."""
    army = load_army_list(path)
    out = [
        (p.id, p.points, q.id, q.points)
        for p in army.profiles
        for q in army.profiles
        if dominates(p, q) and (p.points or 0.0) < (q.points or 0.0)
    ]
    assert not out


def test_corrections_round_trip_through_the_model_file(tmp_path: Path) -> None:
    model = load_model()
    assert model.corrections, "the shipped model carries the duel corrections"
    path = tmp_path / "m.toml"
    path.write_text(model.to_toml(), encoding="utf-8")
    assert load_model(path) == model
    bad = model.to_toml().replace("log_factor = ", "log_factor = 5.0 #", 1)
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(InvalidDataError, match=r"corrections .*log-factor within ±1"):
        load_model(path)


def test_profile_key_names_the_fighting_characteristics() -> None:
    assert profile_key(_profile(W=3)) == "infantry R12 W3 SW1 SO1 Z24 UW3 C3 M4"
    renamed = REFERENCE_PROFILE.model_copy(update={"id": "other", "name": "Other", "points": 3.0})
    assert profile_key(renamed) == profile_key(REFERENCE_PROFILE)


def test_measured_term_is_in_the_breakdown() -> None:
    """A calibrated profile's duel correction shows as the ``measured`` term (step 4)."""
    model = load_model()
    army = load_army_list(bundled_dir("armylists") / "russia.toml")
    b = price_profile(army.profile("opolchenie"), model)
    measured = [t for t in b.terms if t.name == "measured"]
    assert len(measured) == 1
    assert math.log(measured[0].factor) == pytest.approx(
        model.corrections[profile_key(army.profile("opolchenie"))]
    )


def test_validation_matrix_is_reproducible_and_consistent() -> None:
    armies = [load_army_list(TESTLAND)]
    a = validate(armies, duels_per_budget=6, seed=3, workers=1)
    b = validate(armies, duels_per_budget=6, seed=3, workers=1)
    assert a.matrix() == b.matrix()
    n = len(a.entries)
    m = a.matrix()
    assert all(m[i][j] + m[j][i] == pytest.approx(1.0) for i in range(n) for j in range(n))
    assert all(c.duels == 12 for c in a.cells.values())  # 6 per budget, two budgets
    assert 0.0 <= a.share_in_band <= 1.0
    doc = a.to_json()
    assert doc["duels"] == a.duels and len(doc["matrix"]) == n


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35
    assert wilson_interval(5, 0) == (0.0, 1.0)


def test_regenerate_writes_model_and_points(tmp_path: Path) -> None:
    """``points calibrate`` end to end on copies: the model file and the points lines are written,
    and the lists then pass the staleness check against that model."""
    folder = tmp_path / "lists"
    folder.mkdir()
    shutil.copy(TESTLAND, folder / "testland.toml")
    shutil.copy(bundled_dir("armylists") / "britain.toml", folder / "britain.toml")
    paths = sorted(folder.glob("*.toml"))
    out = regenerate(
        paths,
        CalibrationConfig(
            seed=5, rounds=1, duels_per_pair=2, army_battles=2, mixed_battles=2, mixed_rounds=1
        ),
        model_path=tmp_path / "m.toml",
        workers=1,
    )
    model = load_model(tmp_path / "m.toml")
    assert model == out.model
    for path in paths:
        assert stale_points(load_army_list(path), model) == []
    assert out.changed  # the copies had other points before


def test_7_7_1_unrestricted_first_strike_is_priced_as_both_limited_kinds() -> None:
    """7.7.1 — an unrestricted first strike costs what both limited kinds (7.7.2) cost together."""
    from szwadron.armies.points import load_model
    from szwadron.models import Profile

    model = load_model()
    base = {
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
    }
    both = Profile.model_validate({**base, "abilities": ["first_strike_charge", "first_strike_defence"]})
    free = Profile.model_validate({**base, "abilities": ["first_strike"]})
    assert model.raw_value(free) == model.raw_value(both)


def test_circles_are_price_invariant_lower_bounds() -> None:
    """Issue 7 validation: three profiles that beat one another in a circle (70 % each way
    round) cannot all be brought into 50 ± 5 % by any prices (the logit sum round the circle,
    3 × 0.85, exceeds 3 × logit 0.55); a transitive triple (70 %, 70 %, 84.5 %) can."""
    from szwadron.armies.calibrate import Cell, Validation

    entries = duel_profiles(_two_lists())[:3]

    def validation(r01: float, r12: float, r02: float) -> Validation:
        cells = {
            (i, j): Cell(i, j, 1000, r * 1000, ())
            for (i, j), r in {(0, 1): r01, (1, 2): r12, (0, 2): r02}.items()
        }
        return Validation(entries, [1.0] * 3, (1.0,), cells, 0, 0.0, 0)

    circle = validation(0.7, 0.7, 0.3)  # 0 > 1 > 2 > 0
    assert circle.circles() == [(0, 1, 2)]
    assert circle.to_json()["intransitive"]["circles"] == [[e.label for e in entries]]
    assert validation(0.7, 0.7, 0.845).circles() == []  # 0 > 1 > 2: prices can even it
    assert validation(0.52, 0.52, 0.47).circles() == []  # a small circle fits in the band


def test_calibration_names_a_bad_way_to_draw_its_armies() -> None:
    """Issue 14: the mixed armies are random legal rosters or resampled units; anything else is
    refused before any battle is played."""
    config = CalibrationConfig(mixed_armies="roster", rounds=1, duels_per_pair=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="mixed_armies must be 'legal' or 'resampled', got 'roster'"):
        calibrate(_two_lists(), config, workers=1)


_FIT_SNIPPET = """
import numpy as np
from szwadron.armies.calibrate import fit_logistic
rng = np.random.default_rng(1)
X = rng.normal(size=(140000, 11))
y = (rng.random(140000) < 1 / (1 + np.exp(-0.3 * (X @ rng.normal(size=11))))).astype(float)
print(repr(fit_logistic(X, y)))
"""


def test_fit_logistic_does_not_depend_on_the_blas_threads() -> None:
    """Issue 14 — the calibration writes the same model whatever the machine's cores: a threaded
    BLAS sums ``X.T @ v`` in an order that depends on its threads, so the fits run with one BLAS
    thread. Run in fresh processes with one and with two BLAS threads allowed (a size OpenBLAS
    threads), the coefficients and log-likelihood are equal to the last bit."""
    root = Path(__file__).resolve().parents[1]
    answers = set()
    for threads in ("1", "2"):
        env = {
            **os.environ,
            "OPENBLAS_NUM_THREADS": threads,
            "OMP_NUM_THREADS": threads,
            "MKL_NUM_THREADS": threads,
        }
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
        done = subprocess.run(
            [sys.executable, "-c", _FIT_SNIPPET],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        answers.add(done.stdout)
    assert len(answers) == 1
