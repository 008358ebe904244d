"""6.7.1, 6.7.4, 3.1.3, 3.2.1-3.2.3 — the pursuit odds against the applied move, roll by roll.

``szwadron morale`` gives the chance that an uncontrolled pursuit reaches its enemy ("muszą dojść
do nieprzyjaciela by doprowadzić do walki wręcz lub wykorzystać w pełni ruch by się do niego
zbliżyć", 6.7.4); ``morale --apply`` makes the move, its figures one after another, the ranks
closing up ("Figurki nie mogą się poruszać przez inne własne figurki, nawet jeśli należą do tego
samego oddziału", 3.1.3), each into rough ground, a wood or onto a hill with its whole base or
stopping before it (3.2.1, 3.2.2), on no fence (3.2.3). Brute force: for every pursuit position of
the case files, and for every 2d6 total, the move is applied with those dice and the table read
afterwards (PD-14: the pursuer in contact with the pursued unit, at least 1 cm of edge, as
``szwadron check`` and ``melee`` measure it); the exact chance, the sum of the 2d6 chances of
the totals that reach (after a failed reorganisation test, 6.8.3), must be the odds' chance.

Known answers in ``tests/cases/pursuit_close/``, worked by hand: positions where the odds, which
read each figure alone, disagreed with the move (each case names the totals that reach and the
chance before)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from szwadron.game.apply import apply_morale, position_from_text
from szwadron.geometry.battlefield import Battlefield
from szwadron.table.audit import engaged_with_bases
from szwadron.table.morale_phase import morale_phase

CASES = Path(__file__).parent / "cases"
CLOSE = sorted((CASES / "pursuit_close").glob("*.toml"))
#: every case file whose position has a unit in uncontrolled pursuit (the ones that start one at
#: once, after a melee or a disengagement, are read at their pursuit's morale phase instead)
POSITIONS = sorted(
    p
    for folder in ("pursuit", "pursuit_odds", "pursuit_round", "pursuit_close", "morale")
    for p in (CASES / folder).glob("*.toml")
    if 'state = "pursuit"' in p.read_text(encoding="utf-8")
)
TWO_D6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def _position(path: Path) -> str:
    """The case's position (before its ``[case]`` or ``[expected]``), in its pursuer's morale
    phase."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Rule"), f"{path.name}: cite the rule"
    for table in ("\n[case]", "\n[expected]"):
        if table in text:
            text = text[: text.index(table)] + "\n"
    doc = tomlkit.parse(text)
    side = next(u["side"] for u in doc["units"] if u.get("state") == "pursuit")
    doc["turn"] = {"round": 2, "side": side, "phase": "morale"}
    return tomlkit.dumps(doc)


def brute_force(text: str) -> tuple[Fraction, Fraction, dict[int, tuple[bool, bool]]]:
    """The odds' chance that the pursuit reaches its enemy; the chance the applied move gives,
    summed over every 2d6 total; and, by total, what the move's roll record says (``contact``)
    and what the table says afterwards (engaged, PD-14, 5.1.2). Each total must agree."""
    pos = position_from_text(text, "brute force")
    sc = pos.scenario
    unit = next(u for u in sc.units if u.state.value == "pursuit")
    report = morale_phase(Battlefield(sc), unit.side).unit(unit.id)
    pursuit = report.pursuit
    assert pursuit is not None and pursuit.target is not None
    by_total: dict[int, tuple[bool, bool]] = {}
    for total in TWO_D6:
        pips = [min(6, total - 1), total - min(6, total - 1)]
        dice = ([6] if report.may_reorganise else []) + pips  # 6: the reorganisation test fails
        applied = apply_morale(pos, unit.side, dice=dice)
        roll = next(r for r in applied.dice["rolls"] if r["test"] == "pursuit" and r["unit"] == unit.id)
        assert roll["faces"] == pips
        after = position_from_text(applied.text, "after").scenario
        bf = Battlefield(after)
        by_total[total] = (
            bool(roll["contact"]),
            pursuit.target in engaged_with_bases(bf, bf.unit_bases(unit.id)),
        )
    p_move = 1 - report.reorganise_chance
    moved = p_move * sum((TWO_D6[t] for t, (_c, engaged) in by_total.items() if engaged), Fraction(0))
    return pursuit.reach_chance, moved, by_total


@pytest.mark.parametrize("path", POSITIONS, ids=[f"{p.parent.name}/{p.stem}" for p in POSITIONS])
def test_6_7_4_pursuit_odds_are_the_applied_move_summed_over_every_roll(path: Path) -> None:
    """6.7.4, 3.1.3, 3.2 — the odds' chance to reach is exactly the applied move's, summed over the
    eleven 2d6 totals; and the move's roll record says contact exactly when the table does."""
    odds, moved, by_total = brute_force(_position(path))
    assert all(contact is engaged for contact, engaged in by_total.values()), by_total
    assert odds == moved, by_total


def _close(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return data["case"], data["expected"]


@pytest.mark.parametrize("path", CLOSE, ids=[p.stem for p in CLOSE])
def test_3_1_3_known_answers_where_the_odds_read_each_figure_alone(path: Path) -> None:
    """Each case of ``tests/cases/pursuit_close/``: the 2d6 totals with which the applied move
    reaches the pursued unit, and the chance (the odds gave ``reach_chance_before`` while they
    read each figure alone)."""
    _case, want = _close(path)
    odds, moved, by_total = brute_force(_position(path))
    assert sorted(t for t, (_c, engaged) in by_total.items() if engaged) == want["totals"]
    assert odds == moved == Fraction(want["reach_chance"]) != Fraction(want["reach_chance_before"])
