"""6.3.6, 5.5.8 — the player may skip the test for uncontrolled pursuit and choose pursuit
("Gracz może zaniechać tego rzutu i zdecydować, że oddział wpada w niekontrolowany pościg"):
``roll_melee_sequence(..., chosen_pursuit=...)``, ``melee --apply --pursue`` and ``move --disengage
--apply --pursue``. Worked by hand: a chosen pursuit rolls no die, so the dice after it move up."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.game.apply import apply_disengage, apply_melee, position_from_text
from szwadron.odds.morale import MeleeOutcome, roll_melee_sequence

PAIR = Path(__file__).parent / "cases" / "disengage" / "5_8_2_passed_moves_away.toml"


class _Faces(random.Random):
    """Dice given in order (every one must be used)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def _pair() -> str:
    text = PAIR.read_text(encoding="utf-8")
    return text[: text.index("\n[case]")] + "\n"


def test_6_3_6_chosen_pursuit_rolls_no_die() -> None:
    """The defender fails its repulse test (6) and passes the panic test (1): repulsed (6.3.4).
    The attacker, with losses, would test for pursuit (5.5.3); chosen, it pursues with no roll."""
    rolled = _Faces([6, 1, 2])
    (a, d), tests = roll_melee_sequence(4, 4, rolled, attacker_hit=True, defender_hit=True)
    assert (a, d) == (MeleeOutcome.HELD, MeleeOutcome.REPULSED) and len(tests) == 3
    chosen = _Faces([6, 1])
    (a, d), tests = roll_melee_sequence(
        4, 4, chosen, attacker_hit=True, defender_hit=True, chosen_pursuit=frozenset({"attacker"})
    )
    assert (a, d) == (MeleeOutcome.PURSUIT, MeleeOutcome.REPULSED) and len(tests) == 2
    assert chosen.faces == []


def test_5_5_8_a_side_without_losses_may_choose_pursuit() -> None:
    """5.5.8 — the attacker took no losses (no test), the defender is repulsed: the attacker holds,
    or pursues when its player chooses; artillery never pursues (6.7.1)."""
    kw = {"attacker_hit": False, "defender_hit": True}
    assert roll_melee_sequence(4, 4, _Faces([6, 1]), **kw)[0][0] is MeleeOutcome.HELD
    chosen = frozenset({"attacker"})
    assert (
        roll_melee_sequence(4, 4, _Faces([6, 1]), chosen_pursuit=chosen, **kw)[0][0] is MeleeOutcome.PURSUIT
    )
    gun = roll_melee_sequence(4, 4, _Faces([6, 1]), chosen_pursuit=chosen, attacker_pursues=False, **kw)
    assert gun[0][0] is MeleeOutcome.HELD


def test_6_3_6_disengage_with_pursue_rolls_no_pursuit_test() -> None:
    """5.8.4 with 6.3.6 — the enemy's player skips the pursuit test: dice 3 (the unit passes),
    then e's pursuit 4 + 4 at once; e pursues and says so."""
    pos = position_from_text(_pair(), "pair")
    applied = apply_disengage(pos, "a", dice=[3, 4, 4], pursue=True)
    assert applied.ruling["pursuers"] == ["e"] and applied.inputs["pursue"] is True
    assert [r["test"] for r in applied.dice["rolls"]] == ["break_off", "pursuit"]
    assert any("chooses pursuit without the test (6.3.6)" in n for n in applied.notes)


def test_6_3_6_melee_with_pursue() -> None:
    """``apply_melee(..., pursue=True)``: over many seeds, no pursuit test is ever rolled, and a
    side whose opponent is repulsed or panics always pursues."""
    pos = position_from_text(_pair(), "pair")
    seen = 0
    for seed in range(2059, 2109):
        applied = apply_melee(pos, "a", "e", seed=seed, pursue=True)
        assert not any("pursuit" in t["test"] for t in applied.dice["tests"])
        out = applied.ruling["outcome"]
        for me, them in (("attacker", "defender"), ("defender", "attacker")):
            if out[them] in ("repulsed", "panic") and out[me] != "destroyed":
                assert out[me] == "pursuit"
                seen += 1
    assert seen > 0


def test_cli_pursue_needs_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--pursue`` without ``--apply`` is bad usage (exit 2, one message)."""
    scen = tmp_path / "pair.toml"
    scen.write_text(_pair(), encoding="utf-8")
    for argv in (
        ["move", str(scen), "--unit", "a", "--disengage", "--pursue"],
        ["melee", str(scen), "--attacker", "a", "--defender", "e", "--pursue"],
    ):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and "--pursue" in err and "Traceback" not in err
