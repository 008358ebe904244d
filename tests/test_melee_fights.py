"""5.7.2 — a melee where only part of a unit holds the terrain is played as separate fights: the
dice of each fight remove only figures that took part in that fight (5.4.2), each figure strikes
back once, in its own fight, and morale is settled once for the whole melee.

The exact odds (:func:`szwadron.odds.combat.melee`, :class:`szwadron.odds.joint.CombinedEngine`)
are checked against a brute force written here over every face of every die, the table's answer
against the hand-worked case in ``tests/cases/melee_fights`` (its source in its header), and the
rolled melee (``melee --apply``) against the odds, face by face."""

from __future__ import annotations

import contextlib
import io
import json
import random
import tomllib
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import NamedTuple

import pytest
from every_face import every_face

from szwadron.cli import main
from szwadron.game.apply import apply_combined_melee, apply_melee, position_from_text
from szwadron.geometry.battlefield import Battlefield
from szwadron.odds.combat import Fighter, MeleeSide, Side, count_removed, melee, roll_strikes
from szwadron.odds.joint import CombinedEngine, Striker, roll_exchange
from szwadron.odds.morale import MeleeMorale
from szwadron.table.combined import combined_melee
from szwadron.table.melee import table_melee

CASES = Path(__file__).parent / "cases" / "melee_fights"
UPHILL = CASES / "5_7_2_part_uphill_fights_apart.toml"


def _load(case: Path) -> tuple[str, dict[str, object], dict[str, object]]:
    text = case.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return text[: text.index("[check]")], data["check"], data["expected"]


# --- an independent brute force ------------------------------------------------------------------
class Fig(NamedTuple):
    """One figure that fights: its W, SW, UW, the W bonus of the figures it strikes, its fight."""

    wounds: int
    sw: int
    uw: int
    bonus: int = 0
    fight: int = 0


def _groups(figs: list[Fig], left: list[bool]) -> list[tuple[int, int, int, int]]:
    """(dice, UW, bonus, fight) of the figures left, in the order their first figure comes."""
    acc: dict[tuple[int, int, int], int] = {}
    for f, here in zip(figs, left, strict=True):
        if here:
            acc[(f.uw, f.bonus, f.fight)] = acc.get((f.uw, f.bonus, f.fight), 0) + f.sw
    return [(n, uw, b, fight) for (uw, b, fight), n in acc.items() if n]


def _strike(
    groups: list[tuple[int, int, int, int]], struck: list[Fig]
) -> dict[tuple[tuple[bool, ...], bool], Fraction]:
    """Every face of every die of ``groups``; each group's hits remove, along ``struck`` and only
    among figures of its own fight, whole figures while the damage covers their W (+ bonus), then
    one more with the chance remainder / W (1.5.1). Returns which figures are gone, and hit."""
    out: dict[tuple[tuple[bool, ...], bool], Fraction] = {}
    total = sum(n for n, *_ in groups)
    for faces in product(range(1, 7), repeat=total):
        states: dict[tuple[bool, ...], Fraction] = {tuple(False for _ in struck): Fraction(1, 6**total)}
        at, hit = 0, False
        for n, uw, bonus, fight in groups:
            dmg = sum(1 for f in faces[at : at + n] if f <= uw)
            at += n
            hit = hit or dmg > 0
            nxt: dict[tuple[bool, ...], Fraction] = {}
            for gone, p in states.items():
                g = list(gone)
                left = dmg
                mine = [i for i, f in enumerate(struck) if f.fight == fight and not g[i]]
                extra: int | None = None
                for i in mine:
                    w = struck[i].wounds + bonus
                    if left >= w:
                        g[i], left = True, left - w
                    else:
                        extra = i if left else None
                        break
                if extra is None:
                    nxt[tuple(g)] = nxt.get(tuple(g), Fraction(0)) + p
                    continue
                chance = Fraction(left, struck[extra].wounds + bonus)
                nxt[tuple(g)] = nxt.get(tuple(g), Fraction(0)) + p * (1 - chance)
                g[extra] = True
                nxt[tuple(g)] = nxt.get(tuple(g), Fraction(0)) + p * chance
            states = nxt
        for gone, p in states.items():
            out[(gone, hit)] = out.get((gone, hit), Fraction(0)) + p
    return out


def _brute(att: list[Fig], dfn: list[Fig], first: Side | None) -> dict[tuple[int, bool, int, bool], Fraction]:
    """(attacker removed, attacker hit, defender removed, defender hit), every die tried."""
    result: dict[tuple[int, bool, int, bool], Fraction] = {}
    everyone_a, everyone_d = [True] * len(att), [True] * len(dfn)
    if first is None:
        to_d = _strike(_groups(att, everyone_a), dfn)
        to_a = _strike(_groups(dfn, everyone_d), att)
        for (gd, hd), pd in to_d.items():
            for (ga, ha), pa in to_a.items():
                key = (sum(ga), ha, sum(gd), hd)
                result[key] = result.get(key, Fraction(0)) + pd * pa
        return result
    striker, struck = (att, dfn) if first == "attacker" else (dfn, att)
    for (gone, hit), p in _strike(_groups(striker, [True] * len(striker)), struck).items():
        back = _strike(_groups(struck, [not g for g in gone]), striker)
        for (gone2, hit2), p2 in back.items():
            if first == "attacker":
                key = (sum(gone2), hit2, sum(gone), hit)
            else:
                key = (sum(gone), hit, sum(gone2), hit2)
            result[key] = result.get(key, Fraction(0)) + p * p2
    return result


def _side(figs: list[Fig], morale: int = 4) -> MeleeSide:
    fighters = tuple(Fighter(f.wounds, f.sw, f.uw, f.bonus, f.fight) for f in figs)
    return MeleeSide(fighters, MeleeMorale(morale, len(figs), len(figs)))


# Two fights: the attacker's first figure fights a defender on the hill (W + 1), the others in the open.
ATT = [Fig(1, 2, 4, 1, 1), Fig(2, 1, 3, 0, 0), Fig(1, 1, 5, 0, 0)]
DFN = [Fig(1, 1, 3, 0, 1), Fig(2, 1, 4, 0, 0), Fig(1, 1, 2, 0, 0)]


@pytest.mark.parametrize("first", [None, "attacker", "defender"])
def test_5_7_2_exact_odds_are_the_brute_force(first: Side | None) -> None:
    """Every face of every die (and every remainder, 1.5.1): the engine's joint losses, with
    simultaneous strikes and with first strike (7.7: the figures a fight lost strike back not)."""
    want = _brute(ATT, DFN, first)
    got = melee(_side(ATT), _side(DFN), first_strike=first).losses.probabilities()
    assert got == want


def test_5_7_2_one_fight_is_the_melee_as_before() -> None:
    """With every figure in one fight, the brute force of separate fights is the plain melee."""
    att = [f._replace(fight=0, bonus=0) for f in ATT]
    dfn = [f._replace(fight=0) for f in DFN]
    assert melee(_side(att), _side(dfn)).losses.probabilities() == _brute(att, dfn, None)


def test_5_7_2_damage_left_in_one_fight_does_not_reach_the_other() -> None:
    """5.4.2: three sure hits in the fight on the hill take its only figure (W 1 + 1) and no more;
    read as one fight, the third hit would have had a half chance at the figure in the open."""
    att = _side([Fig(1, 3, 6, 1, 1), Fig(1, 0, 6, 0, 0)])
    dfn = _side([Fig(1, 0, 1, 0, 1), Fig(1, 0, 1, 0, 0)])
    odds = melee(att, dfn)
    assert odds.defender_removed.probabilities() == {1: Fraction(1)}
    assert odds.by_fight is not None
    assert odds.by_fight.probabilities() == {((0, 0), (0, 1)): Fraction(1)}


# --- the table ------------------------------------------------------------------------------------
def _frac(xs: object) -> list[Fraction]:
    assert isinstance(xs, list)
    return [Fraction(x) for x in xs]


def test_5_7_2_hand_worked_case_on_the_table() -> None:
    text, check, expected = _load(UPHILL)
    m = table_melee(position_from_text(text, "case").scenario, str(check["attacker"]), str(check["defender"]))
    assert m.fights == expected["fights"]
    a = m.odds.attacker_removed.probabilities()
    d = m.odds.defender_removed.probabilities()
    assert [a.get(k, Fraction(0)) for k in range(3)] == _frac(expected["attacker_removed"])
    assert [d.get(k, Fraction(0)) for k in range(3)] == _frac(expected["defender_removed"])
    assert m.odds.by_fight is not None
    by_fight: Counter[str] = Counter()
    for (_a, dr), p in m.odds.by_fight.probabilities().items():
        assert isinstance(dr, tuple)
        by_fight[",".join(map(str, dr))] += p  # type: ignore[assignment]
    want = expected["defender_by_fight"]
    assert isinstance(want, dict)
    assert dict(by_fight) == {k: Fraction(v) for k, v in want.items()}
    # which figures a count per fight takes: fight 0 is d/1 on the ground, fight 1 d/0 on the hill
    assert m.removed_bases("defender", (1, 0)) == ("d/1",)
    assert m.removed_bases("defender", (0, 1)) == ("d/0",)


def test_5_7_2_one_unit_a_side_combined_is_the_single_melee() -> None:
    text, _check, _ = _load(UPHILL)
    sc = position_from_text(text, "case").scenario
    single = table_melee(sc, "a", "d")
    both = combined_melee(sc, ["a"], ["d"])
    assert both.losses.map(lambda s: (s[0][0], s[0][1], s[1][0], s[1][1])) == single.odds.losses
    assert both.outcomes == single.odds.outcomes
    assert [g.fight for g in both.groups] == [g.fight for g in single.groups]


# Small enough for every face of every die (at most six d6): two fights, one at W + 1.
SMALL_A = [Fig(1, 1, 4, 1, 1), Fig(1, 1, 3, 0, 0)]
SMALL_D = [Fig(1, 1, 3, 0, 1), Fig(1, 1, 2, 0, 0), Fig(1, 0, 2, 0, 1)]


@pytest.mark.parametrize("first", [None, "attacker", "defender"])
def test_5_7_2_the_rolled_strikes_are_the_exact_ones(first: Side | None) -> None:
    """``melee --apply``'s strikes (:func:`roll_strikes`; 5.5's tests follow them), every face of
    every die and remainder roll: which figures go in each fight, and the losses, have exactly
    the question's odds."""
    a, d = _side(SMALL_A), _side(SMALL_D)
    odds = melee(a, d, first_strike=first)
    assert odds.by_fight is not None

    def gone(rng: random.Random) -> object:
        _s, (ag, _ah), (dg, _dh) = roll_strikes(a, d, rng, first_strike=first)
        return (ag, dg)

    def losses(rng: random.Random) -> object:
        _s, (ag, ah), (dg, dh) = roll_strikes(a, d, rng, first_strike=first)
        return (count_removed(ag), ah, count_removed(dg), dh)

    assert every_face(gone) == odds.by_fight.probabilities()
    assert every_face(losses) == odds.losses.probabilities() == _brute(SMALL_A, SMALL_D, first)


@pytest.mark.parametrize("first", [None, 0, 1])
def test_5_7_2_the_rolled_combined_strikes_are_the_exact_ones(first: int | None) -> None:
    """The combined melee's engine and its roll, on the same two fights, one unit a side."""
    strikers = [
        Striker(0, f"a/{i}", 1, Fighter(f.wounds, f.sw, f.uw, f.bonus, f.fight))
        for i, f in enumerate(SMALL_A)
    ] + [
        Striker(1, f"d/{i}", 0, Fighter(f.wounds, f.sw, f.uw, f.bonus, f.fight))
        for i, f in enumerate(SMALL_D)
    ]
    morale = [_side(SMALL_A).morale, _side(SMALL_D).morale]
    engine = CombinedEngine(
        strikers,
        [tuple(f.wounds for f in SMALL_A), tuple(f.wounds for f in SMALL_D)],
        morale,
        [False, False],
        1,
        "d6",
        () if first is None else (first == 0, first == 1),
    )
    single = melee(
        _side(SMALL_A),
        _side(SMALL_D),
        first_strike=[None, "attacker", "defender"][0 if first is None else first + 1],
    )  # type: ignore[arg-type]

    def both(rng: random.Random) -> object:
        hits = roll_exchange(engine, rng, frozenset(), [])
        return tuple((count_removed(hits[u][0]), hits[u][1]) for u in (0, 1))

    exact = engine.losses()
    assert every_face(both) == exact.probabilities()
    assert exact.map(lambda s: (s[0][0], s[0][1], s[1][0], s[1][1])) == single.losses


# --- applied at the table -------------------------------------------------------------------------
# a/0's 2 dice in the fight on the hill miss (6 6); a/1's 2 dice in the open both score (1 1): 2 damage
# on d/1's W 2. d/0 and d/1 strike back, one die each in its own fight, and miss (6 6). d lost one
# figure of two (M 4 - 2 = 2): its repulse test 1 passes; a took no losses. Both stand.
DICE = ["6", "6", "1", "1", "6", "6", "1"]


def test_5_7_2_applied_melee_removes_the_figure_of_the_fight_that_lost_it() -> None:
    """d/0 comes first in d's removal order (5.4.3), but its fight lost nothing: d/1 goes."""
    text, _check, _ = _load(UPHILL)
    done = apply_melee(position_from_text(text, "case"), "a", "d", dice=[int(x) for x in DICE])
    assert done.ruling["removed"] == {"attacker": [], "defender": ["d/1"]}
    assert done.ruling["outcome"] == {"attacker": "engaged", "defender": "engaged"}
    assert [s["fight"] for s in done.dice["strikes"]] == [2, 1, 2, 1]
    assert [s["removed"] for s in done.dice["strikes"]] == [0, 1, 0, 0]


def test_5_7_2_applied_combined_melee_removes_the_same_figure() -> None:
    text, _check, _ = _load(UPHILL)
    pos = position_from_text(text, "case")
    done = apply_combined_melee(pos, ["a"], ["d"], dice=[int(x) for x in DICE])
    assert done.ruling["removed"] == {"a": [], "d": ["d/1"]}
    assert [s.get("fight") for s in done.dice["strikes"]] == [2, 1, 2, 1]


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_5_7_2_cli_shows_the_fights(tmp_path: Path) -> None:
    text, _check, _ = _load(UPHILL)
    f = tmp_path / "t.toml"
    f.write_text(text, encoding="utf-8")
    code, out, _ = _cli("melee", str(f), "--attacker", "a", "--defender", "d")
    assert code == 0
    assert "5.7.2" in out and "fight 2: a/0" in out and "fight 1: d/1" in out
    code, out, _ = _cli("melee", str(f), "--attacker", "a", "--defender", "d", "--json")
    doc = json.loads(out)
    assert [(g["side"], g["fight"], g["figures"]) for g in doc["groups"]] == [
        ("attacker", 2, ["a/0"]),
        ("attacker", 1, ["a/1"]),
        ("defender", 2, ["d/0"]),
        ("defender", 1, ["d/1"]),
    ]
    nxt = tmp_path / "next.toml"
    code, out, err = _cli(
        "melee",
        str(f),
        "--attacker",
        "a",
        "--defender",
        "d",
        "--apply",
        "-o",
        str(nxt),
        "--dice",
        ",".join(DICE),
    )
    assert code == 0, err
    assert "fight 1" in out and "fight 2" in out
    bases = tomllib.loads(nxt.read_text(encoding="utf-8"))
    d = next(u for u in bases["units"] if u["id"] == "d")
    assert [(b["x"], b["y"]) for b in d["bases"]] == [(10.0, 13.0)]  # d/0 stays, d/1 is gone


def test_5_7_2_one_fight_everywhere_is_unchanged() -> None:
    """A melee of one fight (every defender in the open, or every one holding the terrain) has
    every figure in fight 0 and no "fight" in its log: the game logs of before replay alike."""
    text = (Path(__file__).parent / "cases" / "melee" / "5_7_behind_fence.toml").read_text(encoding="utf-8")
    pos = position_from_text(text[: text.index("[check]")], "case")
    m = table_melee(Battlefield(pos.scenario), "a", "d")
    assert m.fights == 1 and m.odds.by_fight is None
    assert {g.fight for g in m.groups} == {0}
    done = apply_melee(pos, "a", "d", seed=2059)
    assert all("fight" not in s for s in done.dice["strikes"])


def test_5_10_4_a_later_group_keeps_the_weights_of_the_states_before_it() -> None:
    """Worked by hand: two sure hits on figures of W 1 and W 2 remove the first and leave 1 of
    the second's 2: it goes with 1/2 (1.5.1). Then one die on ≤ 3: where the second is still
    there (1/2), a hit (1/2) leaves 1 damage on its W 2, removing it with 1/2. Two removed with
    1/2 + 1/2 · 1/4 = 5/8. (The engine once weighed the states after the first group on scales
    of their own — 1/2 each way.)"""
    from szwadron.odds.combat import group_losses

    assert group_losses([(2, 6, 0), (1, 3, 0)], [1, 2]).probabilities() == {
        (1, True): Fraction(3, 8),
        (2, True): Fraction(5, 8),
    }


def test_5_7_2_the_page_gets_the_fights(tmp_path: Path) -> None:
    """``szwadron serve``: the melee's groups and the combined melee's dice order carry the fight."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from szwadron.web.app import create_app

    text, _check, _ = _load(UPHILL)
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    client = TestClient(create_app(path))
    single = client.post("/api/melee", json={"attacker": "a", "defender": "d"}).json()
    assert [g["fight"] for g in single["groups"]] == [2, 1, 2, 1]
    both = client.post("/api/melee-combined", json={"attackers": ["a"], "defenders": ["d"]}).json()
    groups = [st for st in both["dice_order"] if st["step"] == "group"]
    assert [(st["side"], st["fight"], st["figures"]) for st in groups] == [
        ("attacker", 2, ["a/0"]),
        ("attacker", 1, ["a/1"]),
        ("defender", 2, ["d/0"]),
        ("defender", 1, ["d/1"]),
    ]
    r = client.post(
        "/api/apply-melee-combined",
        json={"attackers": ["a"], "defenders": ["d"], "dice": [int(x) for x in DICE]},
    )
    assert r.status_code == 200, r.text
    assert r.json()["applied"]["ruling"]["removed"] == {"a": [], "d": ["d/1"]}


def test_5_7_2_groups_keep_their_order_when_figures_are_lost_first() -> None:
    """7.7, 5.10.3 — with first strike, the side struck first rolls its groups in the order the
    question lists them (the order of their first figure before any removal), whichever figures
    it lost: dice typed for "fight 2" go to fight 2 (a second reader typed dice by the listed
    order and saw them go to the other fight when fight 2 had lost its first figure)."""
    side = _side([Fig(1, 1, 3, 0, 1), Fig(1, 1, 3, 0, 0), Fig(1, 1, 3, 0, 1)])
    assert side.part_groups() == ((2, 3, 0, 1), (1, 3, 0, 0))
    assert side.part_groups((0, 1)) == (
        (1, 3, 0, 1),
        (1, 3, 0, 0),
    )  # d/0 of fight 2 lost: fight 2 still first
    uw = _side([Fig(1, 1, 3), Fig(1, 1, 5), Fig(1, 1, 3)])
    assert uw.strike_groups(1) == ((1, 3, 0), (1, 5, 0))  # the first UW 3 figure lost: UW 3 still first
