"""5.6 — the push-up after a melee in which both stood: ``check_move(..., push_up=ENEMY)``,
``szwadron.game.apply.apply_push_up`` and ``szwadron move --push-up ENEMY --to MOVEFILE``.

The known answers are in ``tests/cases/push_up/``, each worked by hand from the Polish text it
quotes."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from clirun import run_cli as _cli

from szwadron.documents import document_schema
from szwadron.errors import IllegalActionError
from szwadron.game.apply import apply_melee, apply_push_up, position_from_text
from szwadron.table.movement import check_move

REPO = Path(__file__).resolve().parents[1]
CASES = sorted((Path(__file__).parent / "cases" / "push_up").glob("*.toml"))
TOWARDS = Path(__file__).parent / "cases" / "push_up" / "5_6_6_towards_the_enemy.toml"


def _case(path: Path) -> tuple[str, dict[str, Any], dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return text[: text.index("\n[case]")] + "\n", data["case"], data["expected"]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_5_6_known_answers(path: Path) -> None:
    """5.6 — each hand-worked push-up: legal or the rule it breaks; applied when legal."""
    assert path.read_text(encoding="utf-8").startswith("# Rule"), f"{path.name}: cite the rule"
    text, case, want = _case(path)
    pos = position_from_text(text, str(path))
    move = {"bases": case["bases"]}
    report = check_move(pos.scenario, case["unit"], move, push_up=case["enemy"])
    assert report.legal is want["legal"], report.message
    if not want["legal"]:
        assert report.rule == want["rule"], report.message
        with pytest.raises(IllegalActionError):
            apply_push_up(pos, case["unit"], case["enemy"], move)
        return
    assert report.push_up == case["enemy"] and report.charge == ()
    assert max(b.distance for b in report.bases) == pytest.approx(want["distance"], abs=1e-6)
    assert all(b.allowed == 4.0 for b in report.bases)  # 5.6.7
    if "contacts" in want:
        assert list(report.contacts) == want["contacts"]
    applied = apply_push_up(pos, case["unit"], case["enemy"], move)
    nxt = position_from_text(applied.text, "next")
    k = case["bases"][0]["index"]
    b = nxt.scenario.unit(case["unit"]).bases[k]
    assert (b.x, b.y) == (case["bases"][0]["x"], case["bases"][0]["y"])
    assert nxt.scenario.unit(case["unit"]).acted is None  # part of the melee, not an action


def test_5_6_7_the_wood_would_cost_as_a_move() -> None:
    """5.6.7 — the same 3 cm through the wood as an ordinary move pays the wood (3.2.2): the
    push-up's distance is less than the move's."""
    text, case, _want = _case(Path(__file__).parent / "cases" / "push_up" / "5_6_7_whatever_the_terrain.toml")
    sc = position_from_text(text, "wood").scenario
    move = {"bases": case["bases"]}
    plain = check_move(sc, "a", move)
    push = check_move(sc, "a", move, push_up="e")
    assert plain.bases[0].distance > 4.0 > push.bases[0].distance


def test_5_6_1_only_after_a_melee_both_stood() -> None:
    """5.6.1 — a push-up needs the two units engaged (both stood: recorded, or touching): apart
    and not recorded, it is refused, in the question as with ``--apply``."""
    text, case, _want = _case(TOWARDS)
    text = text.replace('engaged_with = ["e"]\n', "").replace('engaged_with = ["a"]\n', "")
    touching = position_from_text(text, "touching")
    assert check_move(touching.scenario, "a", {"bases": case["bases"]}, push_up="e").legal
    apart = position_from_text(text.replace("y = 32.0", "y = 40.0"), "apart")
    assert check_move(apart.scenario, "a", {"bases": case["bases"]}, push_up="e").rule == "5.6.1"
    with pytest.raises(IllegalActionError) as err:
        apply_push_up(apart, "a", "e", {"bases": case["bases"]})
    assert err.value.rule == "5.6.1"


def test_5_6_after_melee_apply_both_stood() -> None:
    """5.6 — after ``melee --apply`` in which both stood the units are engaged and the push-up the
    ruling names can be applied; the ruling says which command makes it."""
    text, case, _want = _case(TOWARDS)
    text = text.replace('engaged_with = ["e"]\n', "").replace('engaged_with = ["a"]\n', "")
    pos = position_from_text(text, "melee")
    # both sides' dice miss (6 against UW 3: no damage), so no losses, no tests: both stand
    applied = apply_melee(pos, "a", "e", dice=[6, 6, 6, 6])
    assert applied.ruling["outcome"] == {"attacker": "engaged", "defender": "engaged"}
    after = position_from_text(applied.text, "after")
    pushed = apply_push_up(after, "a", "e", {"bases": case["bases"]})
    assert "push_up" == pushed.action


def test_cli_push_up(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``move --push-up ENEMY --to MOVEFILE``: the check (exit 0 or 1), JSON valid against the
    move schema, and ``--apply``; bad usage exits 2."""
    text, case, _want = _case(TOWARDS)
    scen, movefile = tmp_path / "s.toml", tmp_path / "m.toml"
    scen.write_text(text, encoding="utf-8")
    b = case["bases"][0]
    movefile.write_text(
        f"[[bases]]\nindex = {b['index']}\nx = {b['x']}\ny = {b['y']}\nfacing = {b['facing']}\n"
    )
    code, out, err = _cli(capsys, "move", str(scen), "--unit", "a", "--push-up", "e", "--to", str(movefile))
    assert code == 0 and "push-up towards e (5.6)" in out and "LEGAL" in out, err
    argv = ["move", str(scen), "--unit", "a", "--push-up", "e", "--to", str(movefile), "--json"]
    doc = json.loads(_cli(capsys, *argv)[1])
    assert doc["push_up"] == "e" and doc["legal"] is True
    schema = json.loads((REPO / "schemas" / "output" / document_schema(argv)).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    out_path = tmp_path / "next.toml"
    code, out, err = _cli(
        capsys,
        "move",
        str(scen),
        "--unit",
        "a",
        "--push-up",
        "e",
        "--to",
        str(movefile),
        "--apply",
        "-o",
        str(out_path),
    )
    assert code == 0 and out_path.exists(), err
    for bad in (["--push-up", "e"], ["--push-up", "e", "--to", str(movefile), "--march"]):
        code, _out, err = _cli(capsys, "move", str(scen), "--unit", "a", *bad)
        assert code == 2 and "--push-up" in err and "Traceback" not in err
