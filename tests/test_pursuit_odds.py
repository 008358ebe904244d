"""6.7.1, 6.7.4, 6.7.5 — the morale phase's pursuit odds read the ways the applied move takes.

"Jednostki oddziału w niekontrolowanym pościgu muszą dojść do nieprzyjaciela by doprowadzić do
walki wręcz lub wykorzystać w pełni ruch by się do niego zbliżyć" (6.7.4), "najkrótszą drogą"
(6.7.5): ``szwadron morale`` gives the chance that the rolled 2d6 × 2 or × 4 cm is at least the
shortest way into edge contact of any figure (the straight slide into contact, or the way round own
units and closed ground; ``way_cm``), as ``morale --apply`` moves it
(:class:`szwadron.table.pursuit.PursuitPlan`), and lists the enemy units on those ways. Known
answers in ``tests/cases/pursuit_odds/``, worked by hand, each measured through the CLI both ways:
the odds, and the applied move with typed dice on either side of the way's length."""

from __future__ import annotations

import json
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import shapely

from szwadron.cli import main
from szwadron.geometry.bases import base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import load_scenario
from szwadron.table.audit import engaged_with_bases

HERE = Path(__file__).parent / "cases" / "pursuit_odds"
CASES = sorted(HERE.glob("*.toml"))


def _case(path: Path, tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """The position (written without its ``[case]``), the case and what is expected."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Rule"), f"{path.name}: cite the rule"
    data = tomllib.loads(text)
    scen = tmp_path / "position.toml"
    scen.write_text(text[: text.index("\n[case]")] + "\n", encoding="utf-8")
    return scen, data["case"], data["expected"]


def _odds(scen: Path, side: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``szwadron morale --json``: the pursuing unit's entry."""
    assert main(["morale", str(scen), "--side", side, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return next(u for u in doc["units"] if u["state"] == "pursuit")


def _reaches(
    scen: Path, side: str, dice: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> bool:
    """``szwadron morale --apply`` with typed dice: does the pursuit reach its enemy?"""
    out = tmp_path / "next.toml"
    args = ["morale", str(scen), "--side", side, "--apply", "--dice", ",".join(map(str, dice))]
    assert main([*args, "-o", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    roll = next(r for r in doc["dice"]["rolls"] if r["test"] == "pursuit")
    assert roll["cm"] == 2 * sum(dice[1:])
    return bool(roll["contact"])


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_6_7_4_pursuit_odds_agree_with_the_applied_move(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each case: the gap and the way into contact, the chance to reach (and the chance the gap
    gave, which disagreed with the move), the enemy units on the way; and the applied move with
    dice either side of the way reaches exactly when the rolled distance is at least ``way_cm``
    (3.2: its terrain surcharges paid, ``terrain_cm`` of it)."""
    scen, case, want = _case(path, tmp_path)
    unit = _odds(scen, case["side"], capsys)
    p = unit["pursuit"]
    assert p["gap_cm"] == pytest.approx(want["gap_cm"], abs=1e-6)
    way = None if want["way_cm"] == "none" else want["way_cm"]
    assert p["way_cm"] == (None if way is None else pytest.approx(way, abs=1e-6))
    # 3.2: how much of the way is terrain surcharge, in the JSON only where there is some
    assert p.get("terrain_cm", 0.0) == pytest.approx(want.get("terrain_cm", 0.0), abs=1e-6)
    assert ("terrain_cm" in p) is (want.get("terrain_cm", 0.0) > 0)
    p_move = 1 - Fraction(unit["reorganise_chance"]).limit_denominator(1000)
    assert Fraction(p["reach_chance"]).limit_denominator(10000) == Fraction(want["reach_chance"])
    gap_reach = p_move * sum(
        (Fraction(q["p"]).limit_denominator(36) for q in p["pmf"] if q["cm"] >= p["gap_cm"] - 1e-6),
        Fraction(0),
    )
    assert gap_reach == Fraction(want["reach_chance_before"]) != Fraction(want["reach_chance"])
    got = [[w["unit"], w["from_cm"], Fraction(w["chance"]).limit_denominator(10000)] for w in p["on_the_way"]]
    assert got == [[u, pytest.approx(cm, abs=1e-6), Fraction(c)] for u, cm, c in want.get("on_the_way", [])]
    for dice, reaches in want["applied"]:
        assert _reaches(scen, case["side"], dice, tmp_path, capsys) is reaches, dice
        assert reaches is (way is not None and 2 * sum(dice[1:]) >= way)


def test_6_7_4_the_text_gives_the_way_into_contact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``szwadron morale`` prints the gap and the way into contact; where no figure has a way
    into contact (an enemy on it stops it, 6.7.5), it says so."""
    scen, _c, _w = _case(HERE / "6_7_4_reach_by_the_slide_into_contact.toml", tmp_path)
    assert main(["morale", str(scen), "--side", "A"]) == 0
    assert "pursuit of e, 17.95 cm away, 18.20 cm to contact: 2d6 × 2 cm; reaches it: 5.6% (6.7.1)" in (
        capsys.readouterr().out
    )
    scen, _c, _w = _case(HERE / "6_7_5_an_enemy_on_the_way_round.toml", tmp_path)
    assert main(["morale", str(scen), "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert (
        "pursuit of e, 18.00 cm away, no way into contact (3.2, 6.7.5): 2d6 × 2 cm; reaches it: 0 (6.7.1)"
        in out
    )
    assert "on the way: g, met after 15.68 cm by p/0; may be attacked: 13.9% (6.7.5)" in out


def test_3_2_3_a_pursuer_ends_on_no_fence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """3.2.3, 6.5.2: the slide into contact would end on the fence in front of the pursued figure;
    with 24 cm (the 4 cm to cross it paid) the pursuer stops before it, touching it (within the
    PD-3 overlap tolerance), in contact across it (PD-4: the table's own contact measure agrees);
    with 18 cm (the crossing unpaid) and 16 cm it stops where it touches it."""
    scen, _c, _w = _case(HERE / "3_2_3_stops_before_a_fence_in_contact_across.toml", tmp_path)
    for dice, y in (([6, 6, 6], 46.50125), ([6, 5, 4], 46.5), ([6, 4, 4], 46.5)):
        out = tmp_path / "next.toml"
        args = [
            "morale",
            str(scen),
            "--side",
            "A",
            "--apply",
            "--dice",
            ",".join(map(str, dice)),
            "-o",
            str(out),
        ]
        assert main(args) == 0
        capsys.readouterr()
        after = load_scenario(out)
        (b,) = after.unit("p").bases
        assert (b.x, b.y) == pytest.approx((49.5, y), abs=1e-6)
        fence = shapely.box(30.0, 47.5, 70.0, 48.0)
        base = shapely.Polygon(base_corners(b.x, b.y, b.facing, *after.unit("p").base_size(0)))
        assert shapely.intersection(base, fence).area <= after.settings.overlap_tolerance_cm**2
        bf = Battlefield(after)
        assert engaged_with_bases(bf, bf.unit_bases("p")) == ["e"]  # in contact across the fence
