"""Issue 14 — rosters nobody fitted the points to: random legal rosters, the exploit search and the
held-out check of ``points validate`` (szwadron.armies.search)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from szwadron.armies.battles import roster_points
from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.rosters import validate_roster
from szwadron.armies.search import (
    CONFIRM_BATTLES,
    MIN_SPEND,
    exploit_search,
    field_rates,
    held_out_validation,
    random_roster,
)
from szwadron.armies.spread import share_without_dice
from szwadron.cli import main
from szwadron.errors import InvalidDataError
from szwadron.models import Kind, Roster

ARMIES = {a.id: a for a in load_lists(army_list_paths())}


@pytest.mark.parametrize("army", sorted(ARMIES))
@pytest.mark.parametrize("limit", [1000.0, 2000.0])
def test_random_rosters_pass_the_constraint_checker_and_spend_the_limit(army: str, limit: float) -> None:
    """Every list constraint, the points limit and 7.2 (a limber per gun that needs one)."""
    a = ARMIES[army]
    for k in range(3):
        roster = random_roster(a, limit, random.Random(f"t:{k}"))
        report = validate_roster(a, roster)
        assert report.ok, report.describe()
        assert report.points is not None and MIN_SPEND * limit <= report.points <= limit
        for e in roster.units:
            p = a.profile(e.profile)
            if p.move_limbered is not None:  # 7.2
                assert [(x.profile, x.figures) for x in e.attached] == [("limber", e.figures)]
            assert p.kind is not Kind.LIMBER


def test_random_rosters_mend_a_draw_that_breaks_share_constraints() -> None:
    """Warsaw at 2,000 points (cavalry at most a third, infantry at least half, a cap on krakusi,
    lancers present): a plain random fill is legal about once in 150 draws, so the generator
    used to give up after 400 on the second of these eight rosters (``points validate
    --held-out`` then failed with exit 2 for that seed). Mending a draw (``_repair``) finds every
    one, each passing the constraint checker."""
    a = ARMIES["warsaw"]
    rng = random.Random("diag:warsaw:2000.0")
    for _ in range(8):
        report = validate_roster(a, random_roster(a, 2000.0, rng))
        assert report.ok, report.describe()


def test_random_rosters_are_seeded() -> None:
    a = ARMIES["russia"]
    assert random_roster(a, 1000.0, random.Random("s")) == random_roster(a, 1000.0, random.Random("s"))


def test_search_finds_a_legal_roster_at_least_as_good_as_its_start() -> None:
    russia, france = ARMIES["russia"], ARMIES["france"]
    field = [(france, france.roster("corps-1000"))]
    found = exploit_search(russia, 1000.0, field, budget=5, battles=4, workers=1)
    assert validate_roster(russia, found.roster).ok
    assert found.evaluated == 5 and 0.0 <= found.rate <= 1.0 and 0.0 <= found.confirmed <= 1.0
    again = exploit_search(russia, 1000.0, field, budget=5, battles=4, workers=1)
    assert again == found  # seeded
    # its rate is confirmed over fresh battles, reported with their 95 % interval (issue 14)
    assert found.battles == CONFIRM_BATTLES * len(field)
    low, high = found.interval
    assert low < found.confirmed < high and 0.15 < high - low < 0.25  # about ± 10 points over 100 battles
    assert found.to_json()["interval"] == [low, high] and found.to_json()["battles"] == found.battles


def test_a_find_played_again_with_its_own_tag_is_the_same_and_with_a_fresh_one_not() -> None:
    """field_rates: the tag seeds the battles (issue 14: the bench plays every find again)."""
    russia, france = ARMIES["russia"], ARMIES["france"]
    field = [(france, france.roster("corps-1000"))]
    roster = russia.roster("corps-1000")
    one = field_rates(russia, [roster], field, 20, "again:a", workers=1)
    assert one == field_rates(russia, [roster], field, 20, "again:a", workers=1)
    others = [field_rates(russia, [roster], field, 20, f"again:{k}", workers=1)[0] for k in "bcdef"]
    assert len(set(others + one)) > 1


def test_search_races_random_rosters_then_climbs_from_the_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's two stages, with a fake field where a roster's rate is its figures / 1,000:
    half the budget in random legal rosters raced on the same dice (the best quarter plays
    again at twice the battles until one is left), then a climb from the winner in which the
    best so far plays again beside its neighbours, on the same dice, every step."""
    from szwadron.armies import search

    russia, france = ARMIES["russia"], ARMIES["france"]
    calls: list[tuple[list[object], int, str, bool]] = []

    def figures(roster: object) -> int:
        return sum(e.figures * e.count for e in roster.units)  # type: ignore[attr-defined]

    def fake_score(army, rosters, field, battles, tag, *, same_dice=False, **kw):  # type: ignore[no-untyped-def]
        calls.append((list(rosters), battles, tag, same_dice))
        return [figures(r) / 1000 for r in rosters]

    monkeypatch.setattr(search, "field_rates", fake_score)
    field = [(france, france.roster("corps-1000"))]
    found = exploit_search(russia, 1000.0, field, budget=32, battles=4, workers=1)
    race = [c for c in calls if ":race" in c[2]]
    assert [len(c[0]) for c in race] == [16, 4, 1] and [c[1] for c in race] == [4, 8, 16]
    starts = race[0][0]
    ranked = sorted(range(16), key=lambda k: (-figures(starts[k]), k))
    assert race[1][0] == [starts[k] for k in ranked[:4]] and race[2][0] == [starts[ranked[0]]]
    best = race[2][0][0]
    steps = [c for c in calls if ":step" in c[2]]
    assert steps and all(c[3] for c in race + steps)  # every lap and step on the same dice
    for rosters, *_ in steps:
        assert rosters[0] == best  # the best so far plays again
        best = max(rosters, key=figures)
    assert found.roster == best and figures(found.roster) >= figures(starts[ranked[0]])
    assert found.evaluated == 16 + sum(len(c[0]) - 1 for c in steps) == 32
    assert calls[-1][1] == search.CONFIRM_BATTLES and found.rate == figures(best) / 1000


def test_same_dice_give_one_roster_the_same_rate_twice() -> None:
    from szwadron.armies.duel import CALIBRATION_CONDITIONS
    from szwadron.armies.search import field_rates

    russia, france = ARMIES["russia"], ARMIES["france"]
    field = [(france, france.roster("corps-1000"))]
    r = russia.roster("corps-1000")
    kw = {"executor": None, "workers": 1, "conditions": CALIBRATION_CONDITIONS}
    same = field_rates(russia, [r, r], field, 6, "t", same_dice=True, **kw)  # type: ignore[arg-type]
    assert same[0] == same[1]
    apart = [field_rates(russia, [r, r], field, 6, f"t{k}", **kw) for k in range(5)]  # type: ignore[arg-type]
    assert any(a != b for a, b in apart)  # without them, each roster has dice of its own


def test_search_budget_zero_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    russia, france = ARMIES["russia"], ARMIES["france"]
    with pytest.raises(InvalidDataError, match="search budget must be at least 1"):
        exploit_search(russia, 1000.0, [(france, france.roster("corps-1000"))], budget=0)
    code = main(["points", "validate", "--search", "0"])
    _, err = capsys.readouterr()
    assert code == 2 and "--search must be at least 1, got 0" in err and "Traceback" not in err
    code = main(["points", "calibrate", "--search", "0", "--dry-run"])
    _, err = capsys.readouterr()
    assert code == 2 and "--search must be at least 1, got 0" in err


def test_held_out_check_reports_band_rms_and_the_strongest_roster() -> None:
    armies = [ARMIES["france"], ARMIES["russia"]]
    held = held_out_validation(armies, random_rosters=1, search=1, battles=2, workers=1)
    # per limit (1000, 2000): 2 random + 2 search rosters, plus 2 example rosters
    assert len(held.rosters) == 8 and {r.source for r in held.rosters} == {"random", "search"}
    # pairs of different lists at the same limit with a held-out roster: 3 × 3 − 1 a limit
    assert len(held.pairs) == 16
    lo = sum(0.45 <= r <= 0.55 for _, _, r in held.pairs) / 16
    assert held.share_in_band == pytest.approx(lo)
    assert held.rms == pytest.approx((sum((r - 0.5) ** 2 for _, _, r in held.pairs) / 16) ** 0.5)
    assert held.worst is not None and held.worst.field_rate == max(r.field_rate for r in held.rosters)
    doc = held.to_json()
    assert doc["pairs"] == 16 and len(doc["searches"]) == 4
    # where the spread comes from: strengths fitted per limit (8 pairs among 6 rosters at each)
    assert sorted(held.limits) == [1000.0] * 8 + [2000.0] * 8
    spread = held.spread
    assert spread is not None and spread.pairs == 16
    assert spread.roster + spread.matchups + spread.dice == pytest.approx(1.0)
    assert doc["spread"] == spread.to_json()
    # the ceiling: each pair with both rosters' own distances from 50 % taken out, counted by hand
    own = {(r.roster.points_limit, r.label): r.field_rate - 0.5 for r in [*held.rosters, *held.examples]}
    even = [
        rate - own[(lim, a)] + own[(lim, b)]
        for lim, (a, b, rate) in zip(held.limits, held.pairs, strict=True)
    ]
    assert held.ceiling == pytest.approx(sum(0.45 <= e <= 0.55 for e in even) / 16)
    assert doc["ceiling"] == held.ceiling and all(c["points_limit"] in (1000.0, 2000.0) for c in doc["cells"])
    # the chances' share with the dice taken out: the pairs' rates as share_without_dice reads them
    assert held.share_without_dice == share_without_dice([r for *_, r in held.pairs], 2)
    assert doc["share_in_band_without_dice"] == held.share_without_dice
    sure = dataclasses.replace(held, battles=10**9)  # the same rates, as if without dice: as measured
    assert sure.share_without_dice == pytest.approx(held.share_in_band)
    assert sure.to_json()["share_in_band_without_dice"] == sure.share_without_dice


def test_held_out_check_rates_each_example_roster_against_the_held_out_rosters() -> None:
    """Issue 14: an example roster's rate against the rosters players build is the mean of its
    pairs with the held-out rosters of the other lists at its limit, seen from its side (1 − the
    held-out roster's rate); its pairs with other example rosters are not counted."""
    armies = [ARMIES["france"], ARMIES["russia"]]
    held = held_out_validation(armies, random_rosters=1, search=1, battles=2, workers=1)
    labels = {f"{a.id}:{r.id}" for a in armies for r in a.rosters}
    assert {r.label for r in held.examples} == labels and {r.source for r in held.examples} == {"example"}
    for ex in held.examples:
        mine = [1.0 - rate for a, b, rate in held.pairs if b == ex.label] + [
            rate for a, b, rate in held.pairs if a == ex.label
        ]
        # France's 1,000-point roster meets Russia's random and search rosters at 1,000 points
        assert len(mine) == 2
        assert ex.field_rate == pytest.approx(sum(mine) / len(mine))
        assert ex.points == pytest.approx(roster_points(ARMIES[ex.army], ex.roster))
    doc = held.to_json()["examples"]
    assert [(e["roster"], e["field_rate"]) for e in doc] == [(r.label, r.field_rate) for r in held.examples]


def test_cli_validate_reports_the_held_out_set(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``points validate --held-out N --search N``: the held-out part of the text and the JSON."""
    import json
    import shutil

    from szwadron.loading import bundled_dir

    for name in ("france", "russia"):
        shutil.copy(bundled_dir("armylists") / f"{name}.toml", tmp_path / f"{name}.toml")
    argv = [
        "points",
        "validate",
        "--lists",
        str(tmp_path),
        "--duels",
        "1",
        "--battles",
        "2",
        "--workers",
        "1",
    ]
    code = main([*argv, "--held-out", "1", "--search", "1", "--json"])
    doc = json.loads(capsys.readouterr().out)
    held = doc["held_out"]
    assert code == 0 and held["pairs"] == 16 and len(held["rosters"]) == 8
    assert {r["source"] for r in held["rosters"]} == {"random", "search"}
    assert 0.0 <= held["share_in_band"] <= 1.0 and held["worst"]["roster"] in {
        r["roster"] for r in held["rosters"]
    }
    # issue 14: each find's shares of the points under its list's caps, the nearest its cap first,
    # as the checker measures them (the find is legal, so every cap is kept)
    for found in held["searches"]:
        army = ARMIES[found["army"]]
        roster = Roster.model_validate({**found["roster"], "points_limit": found["points_limit"]})
        report = validate_roster(army, roster)
        caps = found["caps"]
        assert {c["constraint"] for c in caps} == {
            c.id for c in army.constraints if c.max_share is not None and c.share_of.value == "points"
        }
        assert all(c["ok"] and c["measure"] == "share of points" for c in caps) and report.ok
        closeness = [c["actual"] / c["limit"] for c in caps]
        assert closeness == sorted(closeness, reverse=True)
    code = main([*argv, "--held-out", "1", "--search", "1"])
    out = capsys.readouterr().out
    assert (
        code == 0 and "held out (rosters never used in fitting" in out and "strongest held-out roster" in out
    )
    assert "where the spread comes from:" in out and "matchups (no price can)" in out
    assert f"were every roster even against its field, {held['ceiling']:.1%} of the pairs" in out
    assert held["share_in_band_without_dice"] is None  # two battles a pair: too few to take the dice out
    assert "the dice of 2 battles a pair cannot be taken out of these rates: play more battles" in out
    assert (
        "best " in out and "(95% interval " in out and " over 100 fresh battles; " in out
    )  # one field roster
    assert "example rosters against the held-out rosters" in out and "france:corps-1000" in out
    assert out.count("    nearest its caps: ") == 4 and "of the points; at most 20.0%" in out
    code = main([*argv, "--held-out", "0", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["held_out"] is None


def test_calibration_search_adds_legal_finds_to_the_pool() -> None:
    """``points calibrate --search N``: each list's best find at each limit joins its rosters (the
    units its random armies are drawn from), legal at the points it was found at."""
    from szwadron.armies.calibrate import CalibrationConfig, priced, with_search_winners
    from szwadron.armies.points import load_model

    armies = [ARMIES["france"], ARMIES["russia"]]
    model = load_model()
    out = with_search_winners(armies, model, CalibrationConfig(search=1), workers=1)
    for before, after in zip(armies, out, strict=True):
        added = after.rosters[len(before.rosters) :]
        assert after.rosters[: len(before.rosters)] == before.rosters
        assert sorted(r.id for r in added) == ["search-1000", "search-2000"]
        for r in added:
            assert validate_roster(priced(before, model.points), r).ok


@pytest.mark.parametrize("copies", [0, 8])
def test_calibration_search_finds_play_in_the_calibrations_battles(
    copies: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14, "winners join the fitting pool": a list's exploit-search find (``search-LIMIT``,
    added by ``points calibrate --search N``) stands in its pool of random legal rosters
    SEARCH_COPIES times, so it plays in the calibration's battles even though the example
    rosters' field plays in none (FIELD_SHARE 0); with no copies it plays in none."""
    from szwadron.armies import search
    from szwadron.armies.battles import roster_force

    monkeypatch.setattr(search, "SEARCH_COPIES", copies)
    france, austria = ARMIES["france"], ARMIES["austria"]
    find = search.random_roster(france, 1000.0, random.Random("find"), rid="search-1000")
    with_find = france.model_copy(update={"rosters": (*france.rosters, find)})
    forces, specs = search.legal_battle_design(
        [with_find, austria], points=lambda p: p.points or 0.0, battles=40, budgets=(1000.0,), seed=3
    )
    key = tuple(u.key() for u in roster_force(france, find))
    plays = sum(tuple(u.key() for u in forces[x]) == key for a, b, _, _ in specs for x in (a, b))
    if copies:
        assert 0 < plays < len(specs)  # a share of France's battles, not all of them
    else:
        assert plays == 0


def test_calibration_armies_are_legal_rosters_at_jittered_limits() -> None:
    """Issue 14: the calibration's mixed armies are drawn as an organiser's rosters are — every
    roster of a pool passes the list's constraint checker at its own limit, which is the budget
    jittered by at most e^{±0.1}, and spends at least MIN_SPEND of it."""
    from szwadron.armies.search import legal_pool

    army = ARMIES["prussia"]
    pool = legal_pool(army, 1000.0, 6, random.Random("pool"), jitter=0.2)
    assert len(pool) == 6
    limits = {r.points_limit for r in pool}
    assert len(limits) == 6  # jittered, each its own
    for roster in pool:
        assert roster.points_limit is not None and 1000 * 0.904 <= roster.points_limit <= 1000 * 1.106
        report = validate_roster(army, roster)
        assert report.ok, report.describe()
        assert report.points is not None and report.points >= MIN_SPEND * roster.points_limit
    again = legal_pool(army, 1000.0, 6, random.Random("pool"), jitter=0.2)
    assert again == pool


@pytest.mark.parametrize("field_share", [0.0, 0.5])
def test_calibration_battles_pit_a_lists_rosters_against_the_other_lists(
    field_share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: every battle of :func:`legal_battle_design` sets a random legal roster of one list
    against another list's random legal roster (or, with a ``FIELD_SHARE``, sometimes its example
    roster) at the same budget — never a list against itself — with both sides and the first
    mover alternating; seeded. By default (share 0) the example rosters play no part."""
    from szwadron.armies import search
    from szwadron.armies.battles import force_points, roster_force

    monkeypatch.setattr(search, "FIELD_SHARE", field_share)
    armies = [ARMIES["austria"], ARMIES["france"]]
    examples = {tuple(u.key() for u in roster_force(a, r)) for a in armies for r in a.rosters}
    forces, specs = search.legal_battle_design(
        armies, points=lambda p: p.points or 0.0, battles=8, budgets=(1000.0,), seed=3
    )
    per = round(8 * 3 / 2)  # as many battles as mixed_battle_design's three pairs a-a, a-b, b-b
    assert len(specs) == 2 * per
    lists = {id(f): a.id for a in armies for f in forces if f and f[0].profile in a.profiles}
    fielded = 0
    for a, b, first, _ in specs:
        assert lists[id(forces[a])] != lists[id(forces[b])]  # never a list against itself
        assert 850 <= force_points(forces[a]) <= 1106 and 850 <= force_points(forces[b]) <= 1106
        fielded += sum(tuple(u.key() for u in forces[x]) in examples for x in (a, b))
        assert first in (0, 1)
    if field_share:
        assert 0 < fielded < len(specs)  # about FIELD_SHARE of the battles meet an example roster
    else:
        assert fielded == 0
    assert [s[2] for s in specs[:4]] == [0, 1, 0, 1]
    again = search.legal_battle_design(
        armies, points=lambda p: p.points or 0.0, battles=8, budgets=(1000.0,), seed=3
    )
    assert again[1] == specs
