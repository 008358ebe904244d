"""6.7.1, 6.7.4, 6.7.10, 3.1.3 — the pursuit move at the table (``szwadron.game.apply``): each
figure into edge contact (PD-14) with the pursued unit, the ranks closing up, and the pursuer
retargeted when its quarry has left. Known answers in ``tests/cases/pursuit/``, worked by hand."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from szwadron.game.apply import apply_disengage, apply_morale, position_from_text
from szwadron.geometry.battlefield import Battlefield
from szwadron.table.audit import audit, engaged_with_bases

CASES = sorted((Path(__file__).parent / "cases" / "pursuit").glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_6_7_pursuit_known_answers(path: Path) -> None:
    """Each case: the pursuit reaches (or not), ends in edge contact, and writes a clean table."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Rule"), f"{path.name}: cite the rule"
    data = tomllib.loads(text)
    case, want = data["case"], data["expected"]
    pos = position_from_text(text[: text.index("\n[case]")] + "\n", str(path))
    if "side" in case:
        applied = apply_morale(pos, case["side"], dice=case["dice"])
        pursuer = next(u.id for u in pos.scenario.units if u.state.value == "pursuit")
    else:
        applied = apply_disengage(pos, case["unit"], dice=case["dice"])
        pursuer = applied.ruling["pursuers"][0]
    rolls = applied.dice["rolls"]
    assert [r["contact"] for r in rolls if r["test"] == "pursuit"] == [want["reaches"]]
    nxt = position_from_text(applied.text, "next")
    if "unit_xy" in want:
        got = [v for b in nxt.scenario.unit(pursuer).bases for v in (b.x, b.y)]
        assert got == pytest.approx([v for xy in want["unit_xy"] for v in xy], abs=1e-6)
    bf = Battlefield(nxt.scenario)
    target = nxt.scenario.unit(pursuer).pursuing
    assert (target in engaged_with_bases(bf, bf.unit_bases(pursuer))) is want["engaged"]
    assert not [p for p in audit(bf).problems if p.rule == "PD-3"]  # no figure on another (3.1.3)


def test_6_7_10_the_pursuer_takes_its_next_target() -> None:
    """6.7.10 ("Po zniszczeniu oddziału ściganego oddział w niekontrolowanym pościgu atakuje
    kolejny najbliższy wrogi oddział"): the pursuer's quarry has left the table; it moves at the
    next nearest enemy unit and the position names that unit as the one it pursues."""
    text = (
        Path(__file__).parent / "cases" / "pursuit" / "6_7_4_from_a_corner_into_edge_contact.toml"
    ).read_text(encoding="utf-8")
    text = text[: text.index("\n[case]")] + "\n"
    text = text.replace('pursuing = "e"\n', "")  # its quarry has gone (PD-18, 6.6.13)
    pos = position_from_text(text, "gone")
    nxt = position_from_text(apply_morale(pos, "A", dice=[6, 4, 4]).text, "next")
    assert nxt.scenario.unit("p").pursuing == "e"


def test_2_2_1_v_no_nothing_to_do_when_enemy_pursuers_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.2.1 V ("Ruch i walka wręcz wrogich oddziałów ścigających własne oddziały"): side B's
    units are all in normal order, but A's pursuer of e moves in B's morale phase: the report
    does not say there is nothing to do, and lists that pursuit."""
    from szwadron.cli import main

    text = (
        Path(__file__).parent / "cases" / "pursuit" / "6_7_4_from_a_corner_into_edge_contact.toml"
    ).read_text(encoding="utf-8")
    scen = tmp_path / "p.toml"
    scen.write_text(text[: text.index("\n[case]")] + "\n", encoding="utf-8")
    assert main(["morale", str(scen), "--side", "B"]) == 0
    out = capsys.readouterr().out
    assert "nothing to do" not in out and "2.2.1 V" in out
