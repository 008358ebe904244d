"""5.8, 6.4.1, 6.4.2, 7.6 — disengaging from melee: the odds (``szwadron.table.disengage``), the
disengagement applied (``szwadron.game.apply.apply_disengage``) and ``szwadron move --disengage``.

The known answers are in ``tests/cases/disengage/``, each worked by hand from the Polish text it
quotes; the exact chances are also checked against every die counted one by one."""

from __future__ import annotations

import itertools
import json
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from clirun import run_cli

from szwadron.documents import document_schema
from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.game.apply import (
    apply_disengage,
    apply_morale,
    apply_move,
    apply_next_phase,
    position_from_text,
)
from szwadron.geometry.battlefield import Battlefield
from szwadron.table.audit import engaged_with_bases
from szwadron.table.disengage import disengage

REPO = Path(__file__).resolve().parents[1]
CASES = sorted((Path(__file__).parent / "cases" / "disengage").glob("*.toml"))
PAIR = Path(__file__).parent / "cases" / "disengage" / "5_8_2_passed_moves_away.toml"


def _case(path: Path) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The case's scenario text (everything before ``[case]``), its inputs and its answer."""
    text = path.read_text(encoding="utf-8")
    scenario = text[: text.index("\n[case]")] + "\n"
    data = tomllib.loads(text)
    return scenario, data["case"], data["expected"]


def _ys(pos: Any, unit: str) -> list[float]:
    return [round(b.y, 2) for b in pos.scenario.unit(unit).bases]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_5_8_known_answers(path: Path) -> None:
    """5.8 — each hand-worked case: the odds before the dice, then the dice applied."""
    text, case, want = _case(path)
    pos = position_from_text(text, str(path))
    move = {"bases": case["to"]} if "to" in case else None
    ruling = disengage(pos.scenario, case["unit"], move)
    if "refused" in want:  # refused before any die, nothing applied
        assert ruling.rule == want["refused"], ruling.message
        with pytest.raises(IllegalActionError) as err:
            apply_disengage(pos, case["unit"], move, dice=case["dice"])
        assert err.value.rule == want["refused"]
        return
    assert ruling.legal, ruling.message
    if "target" in want:
        assert ruling.target == want["target"]
    if "automatic" in want:
        assert ruling.automatic is want["automatic"]
    if "pass_chance" in want:
        assert ruling.pass_chance == Fraction(want["pass_chance"])
    for unit, p in want.get("pursuit_chance", {}).items():
        assert {t.unit: t.pursuit_chance for t in ruling.pursuers}[unit] == Fraction(p)
    for unit, branch in want.get("pursuer_branch", {}).items():
        assert {t.unit: t.branch for t in ruling.pursuers}[unit] == branch
    applied = apply_disengage(pos, case["unit"], move, dice=case["dice"])
    nxt = position_from_text(applied.text, "next")
    if "in_contact" in want:  # 5.1.2, PD-14: the pursuer touches the unit along an edge
        bf = Battlefield(nxt.scenario)
        assert ("e" in engaged_with_bases(bf, bf.unit_bases("a"))) is want["in_contact"]
    assert applied.ruling["passed"] is want["passed"]
    if "pursuers" in want:
        assert applied.ruling["pursuers"] == want["pursuers"]
    assert _ys(nxt, "a") == pytest.approx(want["a_y"], abs=0.01)
    if "e_y" in want:
        assert _ys(nxt, "e") == pytest.approx(want["e_y"], abs=0.01)
    for unit in ("a", "e"):
        if f"{unit}_state" in want:
            assert nxt.scenario.unit(unit).state.value == want[f"{unit}_state"]
    if "e_pursuing" in want:
        assert nxt.scenario.unit("e").pursuing == want["e_pursuing"]
    for unit, engaged in want.get("engaged_with", {}).items():
        assert list(nxt.scenario.unit(unit).engaged_with) == engaged
    assert nxt.scenario.unit("a").acted is not None and nxt.scenario.unit("a").acted.value == "disengage"


def _with_ones(pos: Any, faces: list[int]) -> Any:
    """``apply_disengage`` with these first dice and as many 1s after them as the flight and the
    pursuit roll (every die given must be used)."""
    for extra in range(0, 7, 2):
        try:
            return apply_disengage(pos, "a", dice=faces + [1] * extra)
        except InvalidArgumentError:
            continue
    raise AssertionError(f"no number of dice after {faces} works")


def test_5_8_odds_match_every_die_counted() -> None:
    """5.8.2, 5.8.4 — the chances of the ruling against the dice counted one by one: over every
    pair of faces (the unit's test, the enemy's pursuit test) the applied outcome's shares are
    the ruling's pass and pursuit chances, and the two are independent."""
    text, _inputs, _want = _case(PAIR)
    pos = position_from_text(text, "case")
    ruling = disengage(pos.scenario, "a")
    counts: dict[tuple[bool, bool], int] = {}
    for test, pursuit in itertools.product(range(1, 7), repeat=2):
        applied = _with_ones(pos, [test, pursuit])
        key = (applied.ruling["passed"], bool(applied.ruling["pursuers"]))
        counts[key] = counts.get(key, 0) + 1
    passed = Fraction(counts.get((True, True), 0) + counts.get((True, False), 0), 36)
    pursued = Fraction(counts.get((True, True), 0) + counts.get((False, True), 0), 36)
    assert passed == ruling.pass_chance
    assert pursued == ruling.pursuers[0].pursuit_chance
    assert Fraction(counts.get((True, True), 0), 36) == passed * pursued


def _validates(argv: list[str], doc: Any) -> None:
    """The document validates against the schema its command line names."""
    name = document_schema(argv)
    schema = json.loads((REPO / "schemas" / "output" / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)


def _engaged_pair() -> str:
    text, _inputs, _want = _case(PAIR)
    return text


def test_5_8_1_not_engaged_is_refused() -> None:
    """5.8.1 — only a unit engaged in melee disengages: one apart from the enemy is refused."""
    text = _engaged_pair().replace("y = 32.0", "y = 45.0").replace('engaged_with = ["e"]\n', "")
    text = text.replace('engaged_with = ["a"]\n', "")
    pos = position_from_text(text, "apart")
    with pytest.raises(IllegalActionError) as err:
        disengage(pos.scenario, "a")
    assert err.value.rule == "5.8.1"


def test_5_1_2_contact_alone_engages() -> None:
    """5.1.2 — touching is engagement, recorded or not: the unit disengages from the enemy it touches."""
    text = _engaged_pair().replace('engaged_with = ["e"]\n', "").replace('engaged_with = ["a"]\n', "")
    assert disengage(position_from_text(text, "touching").scenario, "a").enemies == ("e",)


def test_5_8_2_a_move_still_in_contact_is_refused() -> None:
    """5.8.2 — "odsuwa się od nieprzyjaciela": a move that ends still touching the enemy is refused
    before any die is rolled, and nothing is applied."""
    pos = position_from_text(_engaged_pair(), "pair")
    sideways = {
        "bases": [
            {"index": 0, "x": 48.0, "y": 30.0, "facing": 90.0},
            {"index": 1, "x": 50.0, "y": 30.0, "facing": 90.0},
        ]
    }
    ruling = disengage(pos.scenario, "a", sideways)
    assert ruling.rule == "5.8.2" and "e" in ruling.message
    with pytest.raises(IllegalActionError) as err:
        apply_disengage(pos, "a", sideways, dice=[1, 1])
    assert err.value.rule == "5.8.2"


def test_5_8_2_a_given_move_too_long_is_refused() -> None:
    """5.8.2 — "nieprzekraczającą cechy Ruch": a move longer than R is refused (3.1.5)."""
    pos = position_from_text(_engaged_pair(), "pair")
    far = {"bases": [{"index": k, "x": 49.0 + 2 * k, "y": 15.0, "facing": 90.0} for k in range(2)]}
    assert disengage(pos.scenario, "a", far).rule == "3.1.5"
    near = {"bases": [{"index": k, "x": 49.0 + 2 * k, "y": 25.0, "facing": 90.0} for k in range(2)]}
    applied = apply_disengage(pos, "a", near, dice=[1, 1])
    assert _ys(position_from_text(applied.text, "next"), "a") == [25.0, 25.0]


def test_6_1_a_panicking_unit_does_not_disengage() -> None:
    """6.1.3 — a panicking unit obeys no orders (the morale machine's refusal)."""
    text = _engaged_pair().replace('engaged_with = ["e"]\n', 'engaged_with = ["e"]\nstate = "panic"\n')
    with pytest.raises(IllegalActionError) as err:
        disengage(position_from_text(text, "panic").scenario, "a")
    assert err.value.rule == "6.1.3"


def test_5_8_1_an_engaged_unit_does_not_simply_move() -> None:
    """5.8.1 — "zamiast walki": an engaged unit fights or disengages; a plain move is refused."""
    pos = position_from_text(_engaged_pair(), "pair")
    back = {"bases": [{"index": k, "x": 49.0 + 2 * k, "y": 25.0, "facing": 90.0} for k in range(2)]}
    with pytest.raises(IllegalActionError) as err:
        apply_move(pos, "a", back)
    assert err.value.rule == "5.8.1"


def test_2_3_disengaging_is_the_units_action() -> None:
    """2.3 — a disengagement is the unit's one action of its movement phase: in a game it is made in
    its side's movement phase, once."""
    text = '[turn]\nround = 1\nside = "A"\nphase = "movement"\n\n' + _engaged_pair()
    text = text.replace("[turn]", 'name = "t"\n\n[turn]', 1).replace(
        '\nname = "5.8.2 passed: moves away"\n', "\n", 1
    )
    pos = position_from_text(text, "game")
    done = position_from_text(apply_disengage(pos, "a", dice=[1, 1]).text, "next")
    with pytest.raises(IllegalActionError) as err:
        apply_disengage(done, "a", dice=[1, 1])
    assert err.value.rule in ("2.3", "5.8.1")


def test_2_2_one_morale_phase_a_turn() -> None:
    """2.2 — a side's morale phase is played once: a second ``morale --apply`` is refused until the
    game goes on, and the next phase forgets that it was played."""
    text = 'name = "t"\n\n[turn]\nround = 1\nside = "A"\nphase = "morale"\n' + _engaged_pair().split(
        "\n[table]", 1
    )[1].join(["\n[table]", ""])
    pos = position_from_text(text, "game")
    played = position_from_text(apply_morale(pos, "A", seed=1).text, "played")
    assert played.scenario.turn is not None and played.scenario.turn.morale_played
    with pytest.raises(IllegalActionError) as err:
        apply_morale(played, "A", seed=1)
    assert err.value.rule == "2.2"
    moved_on = position_from_text(apply_next_phase(played).text, "movement")
    assert moved_on.scenario.turn is not None and not moved_on.scenario.turn.morale_played
    assert "morale_played" not in moved_on.text


def test_cli_disengage_question_and_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``szwadron move --disengage``: the odds and the move (exit 0), JSON, then applied with dice."""
    scen = tmp_path / "pair.toml"
    scen.write_text(_engaged_pair(), encoding="utf-8")
    code, out_text, err = run_cli(capsys, "move", str(scen), "--unit", "a", "--disengage")
    assert code == 0, err
    assert "5.8" in out_text and "66.7%" in out_text and "33.3%" in out_text
    argv = ["move", str(scen), "--unit", "a", "--disengage", "--json"]
    doc = json.loads(run_cli(capsys, *argv)[1])
    assert doc["pass_chance"] == "2/3" and doc["pursuers"][0]["pursuit_chance"] == "1/3"
    _validates(argv, doc)
    argv = [*argv, "--apply", "-o", str(tmp_path / "json.toml"), "--roll", "--seed", "2059"]
    _validates(argv, json.loads(run_cli(capsys, *argv)[1]))
    out = tmp_path / "next.toml"
    code, out_text, err = run_cli(
        capsys, "move", str(scen), "--unit", "a", "--disengage", "--apply", "-o", str(out), "--dice", "3,2"
    )
    assert code == 0, err
    assert "break off test: rolled 3" in out_text and out.exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--dice", "1,2"], "--disengage"),
        (["--disengage", "--repulse", "e"], "--repulse"),
        (["--disengage", "--apply", "-o", "X"], "--dice"),
        (["--disengage", "--dice", "1"], "--apply"),
    ],
)
def test_cli_disengage_bad_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    """Bad usage: one clear message, exit 2, nothing written."""
    scen = tmp_path / "pair.toml"
    scen.write_text(_engaged_pair(), encoding="utf-8")
    args = [str(tmp_path / "x.toml") if a == "X" else a for a in args]
    code, _out, err = run_cli(capsys, "move", str(scen), "--unit", "a", *args)
    assert code == 2 and needle in err and "Traceback" not in err
    assert not (tmp_path / "x.toml").exists()


def test_cli_disengage_refused_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A refused disengagement (not engaged, 5.8.1) exits 1 and writes nothing."""
    scen = tmp_path / "apart.toml"
    scen.write_text(
        _engaged_pair()
        .replace("y = 32.0", "y = 45.0")
        .replace('engaged_with = ["e"]\n', "")
        .replace('engaged_with = ["a"]\n', ""),
        encoding="utf-8",
    )
    out = tmp_path / "next.toml"
    code, _out, err = run_cli(
        capsys, "move", str(scen), "--unit", "a", "--disengage", "--apply", "-o", str(out), "--dice", "1,1"
    )
    assert code == 1 and "5.8.1" in err and not out.exists()


def test_5_8_2_the_found_move_goes_away_from_every_enemy() -> None:
    """5.8.2 — beset in front (e1) and on the flank (e2), the unit's found move goes away from both
    (before, away from the first in file order: along e1's front when e2 came first), whatever the
    order of the file."""
    profile = '{ id = "inf", name = "Line", kind = "infantry", R = 12, W = 2, SW = 1, SO = 1, Z = 24, UW = 3, C = 3, M = 4 }'
    units = {
        "a": f'id = "a"\nside = "A"\nprofile = {profile}\n'
        "bases = [ { x = 49.0, y = 30.0, facing = 90.0 }, { x = 51.0, y = 30.0, facing = 90.0 } ]\n",
        "e1": f'id = "e1"\nside = "B"\nprofile = {profile}\n'
        "bases = [ { x = 49.0, y = 32.0, facing = 270.0 }, { x = 51.0, y = 32.0, facing = 270.0 } ]\n",
        "e2": f'id = "e2"\nside = "B"\nprofile = {profile}\n'
        "bases = [ { x = 53.0, y = 30.0, facing = 180.0 }, { x = 55.0, y = 30.0, facing = 180.0 } ]\n",
    }
    ends = []
    for order in (("a", "e1", "e2"), ("a", "e2", "e1")):
        text = 'name = "beset"\n\n[table]\nwidth = 100.0\ndepth = 100.0\n' + "".join(
            "\n[[units]]\n" + units[u] for u in order
        )
        r = disengage(position_from_text(text, "beset").scenario, "a")
        assert r.legal and r.move is not None, r.message
        ends.append([tuple(round(v, 6) for v in b.poses[-1][:2]) for b in r.move.bases])
        x, y = r.move.bases[0].poses[-1][:2]
        assert x < 49.0 and y < 30.0  # away from e2 (east) and from e1 (north)
    assert ends[0] == ends[1]


def test_5_8_2_the_found_move_stops_at_the_table_edge() -> None:
    """5.8.2 ("na odległość nieprzekraczającą cechy Ruch"): 8 cm from its own table edge the unit
    cannot back its full 12 cm; the found move goes as far as the table allows (a repulse could
    not, 6.5.5), and out of the enemy's zone."""
    text = _engaged_pair().replace("y = 30.0", "y = 8.0").replace("y = 32.0", "y = 10.0")
    r = disengage(position_from_text(text, "edge").scenario, "a")
    assert r.legal, r.message
    assert r.move is not None and 2.0 < max(b.distance for b in r.move.bases) < 12.0


def test_5_8_1_the_move_question_says_but_not_now(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """5.8.1 — ``move`` (the question) of a unit the game records as engaged still measures the
    move, and says it may not make it now (as ``fire`` does for a unit that may not fire)."""
    scen, movefile = tmp_path / "pair.toml", tmp_path / "back.toml"
    scen.write_text(_engaged_pair(), encoding="utf-8")
    movefile.write_text(
        "".join(f"[[bases]]\nindex = {k}\nx = {49.0 + 2 * k}\ny = 25.0\nfacing = 90.0\n" for k in range(2)),
        encoding="utf-8",
    )
    code, out, _err = run_cli(capsys, "move", str(scen), "--unit", "a", "--to", str(movefile))
    assert code == 0 and "but not now" in out and "5.8.1" in out
