"""``szwadron serve``: the moves that belong to a melee — disengaging (5.8, ``move --disengage``)
and the push-up after a melee in which both stood (5.6, ``move --push-up``). The page's answers
are the command line's documents, its next positions ``--apply``'s; a refusal is its rule and
message and changes nothing; the game log replays to the page's table.

The tables are the hand-worked cases of ``tests/cases/disengage/`` and ``tests/cases/push_up/``
(their answers are checked there; here, that the page gets the same)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from szwadron.game.log import parse_log, replay
from szwadron.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
CASES = Path(__file__).parent / "cases"
#: 5.8.2: a (2 line bases, M 4) engaged front to front with e; passes on 1-4, e pursues on 5-6
DISENGAGE = CASES / "disengage" / "5_8_2_passed_moves_away.toml"
#: 5.6: a/2 stands 3 cm behind a's line, not in contact with e
PUSH_UP = CASES / "push_up" / "5_6_6_towards_the_enemy.toml"
A2_PUSHED = [[49.0, 30.0, 90.0], [51.0, 30.0, 90.0], [53.0, 30.0, 90.0]]


def scenario_of(case: Path, *, engaged: bool = True) -> str:
    """The case's scenario (the text before ``[case]``); ``engaged=False`` drops the recorded
    ``engaged_with`` (the units before their melee)."""
    text = case.read_text(encoding="utf-8")
    text = text[: text.index("\n[case]")] + "\n"
    if not engaged:
        text = text.replace('engaged_with = ["e"]\n', "").replace('engaged_with = ["a"]\n', "")
    return text


def client_for(folder: Path, text: str) -> TestClient:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return TestClient(create_app(path))


def text_of(client: TestClient) -> str:
    return client.post("/api/toml", json={}).text


def unit_of(client: TestClient, uid: str) -> dict[str, Any]:
    return next(u for u in client.get("/api/state").json()["units"] if u["id"] == uid)


def ys(unit: dict[str, Any]) -> list[float]:
    return [b["y"] for b in unit["bases"]]


@pytest.fixture()
def engaged(tmp_path: Path) -> TestClient:
    return client_for(tmp_path, scenario_of(DISENGAGE))


# -- 5.8: disengaging ---------------------------------------------------------------------------


def test_disengage_odds_and_the_found_move_5_8(engaged: TestClient) -> None:
    """5.8.2, 5.8.4 — the test passes on 1-4 (2/3), e falls into pursuit on 5-6 (1/3); without a
    dragged move the unit backs its full move, 12 cm, straight away from e."""
    r = engaged.post("/api/disengage", json={"unit": "a"})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert (doc["unit"], doc["enemies"], doc["target"], doc["pass_chance"]) == ("a", ["e"], 4, "2/3")
    assert [(p["unit"], p["branch"], p["pursuit_chance"]) for p in doc["pursuers"]] == [("e", "test", "1/3")]
    assert doc["legal"] is True and doc["found"] is True and doc["rule"] is None
    assert [b["poses"][-1] for b in doc["move"]["bases"]] == [[49.0, 18.0, 90.0], [51.0, 18.0, 90.0]]
    assert [b["distance"] for b in doc["move"]["bases"]] == [12.0, 12.0]


def test_disengage_dragged_move_and_one_still_in_contact_5_8_2(engaged: TestClient) -> None:
    """5.8.2 — the poses the player dragged are the move checked (``found`` false); a move that
    still touches the enemy is refused with 5.8.2, and nothing changes."""
    before = text_of(engaged)
    r = engaged.post("/api/disengage", json={"unit": "a", "to": [[49.0, 25.0, 90.0], [51.0, 25.0, 90.0]]})
    doc = r.json()
    assert doc["found"] is False and doc["legal"] is True, doc["message"]
    assert [b["distance"] for b in doc["move"]["bases"]] == [5.0, 5.0]
    r = engaged.post("/api/disengage", json={"unit": "a", "to": [[48.0, 30.0, 90.0], [50.0, 30.0, 90.0]]})
    doc = r.json()
    assert (doc["legal"], doc["rule"]) == (False, "5.8.2")
    assert "still in the control zone of e" in doc["message"]
    r = engaged.post(
        "/api/apply-disengage", json={"unit": "a", "to": [[48.0, 30.0, 90.0], [50.0, 30.0, 90.0]], "seed": 1}
    )
    assert r.status_code == 422 and r.json()["rule"] == "5.8.2"
    assert text_of(engaged) == before


def test_applied_disengagement_equals_the_cli_apply_and_replays_5_8(
    engaged: TestClient, tmp_path: Path
) -> None:
    """5.8.2, 5.8.4, 6.7.1 — dice 3 (passed), 5 (e pursues), then e's 2d6 4, 4: a backs to y 18,
    e pursues at once to y 20; the page's next position is ``move --disengage --apply``'s, its
    log line says so and the log replays to it; undo goes back."""
    start = text_of(engaged)
    r = engaged.post("/api/apply-disengage", json={"unit": "a", "dice": [3, 5, 4, 4]})
    assert r.status_code == 200, r.text
    applied = r.json()["applied"]
    assert applied["action"] == "disengage"
    assert (applied["ruling"]["passed"], applied["ruling"]["pursuers"]) == (True, ["e"])
    assert any("disengages from e (5.8.2)" in n for n in applied["notes"])
    state = r.json()["state"]
    a, e = (next(u for u in state["units"] if u["id"] == x) for x in ("a", "e"))
    assert ys(a) == [18.0, 18.0] and a["acted"] == "disengage"
    assert (a["engaged_with"], e["engaged_with"]) == (["e"], ["a"])  # the pursuer reached it (5.1.2)
    assert (e["state"], e["pursuing"]) == ("pursuit", "a")
    assert ys(e) == pytest.approx([20.0, 20.0], abs=0.01)  # front to front with a (6.7.1)
    assert [line["action"] for line in state["log"]] == ["disengage"]

    scen = tmp_path / "cli.toml"
    scen.write_text(start, encoding="utf-8")
    command = ["move", str(scen), "--unit", "a", "--disengage", "--dice", "3,5,4,4"]
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", *command, "--apply", "-o", str(tmp_path / "next.toml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert text_of(engaged) == (tmp_path / "next.toml").read_text(encoding="utf-8")
    log = parse_log(engaged.get("/api/log").text, source="page")
    assert replay(log) == text_of(engaged)

    r = engaged.post("/api/apply-disengage", json={"unit": "a", "seed": 2})  # 2.3: it has acted
    assert r.status_code == 422 and r.json()["rule"] == "2.3"
    assert engaged.post("/api/undo", json={}).json()["undone"] == {"n": 1, "action": "disengage"}
    assert text_of(engaged) == start


def test_disengage_with_a_dragged_move_and_a_seed_5_8(engaged: TestClient) -> None:
    """5.8.2 — applied with the dragged poses: passed, the unit stands where it was dragged; the
    seed rolls the dice and is kept in the log."""
    to = [[49.0, 25.0, 90.0], [51.0, 25.0, 90.0]]
    for seed in range(40):  # the first seed whose test passes (2/3 of them)
        r = engaged.post("/api/apply-disengage", json={"unit": "a", "to": to, "seed": seed})
        assert r.status_code == 200, r.text
        if r.json()["applied"]["ruling"]["passed"]:
            break
        engaged.post("/api/undo", json={})
    applied = r.json()["applied"]
    assert applied["dice"]["seed"] == seed
    assert applied["inputs"]["move"]["bases"][0] == {"index": 0, "x": 49.0, "y": 25.0, "facing": 90.0}
    assert ys(unit_of(engaged, "a")) == [25.0, 25.0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"unit": "a"}, "missing: give the disengagement's dice"),
        ({"unit": "a", "dice": [3]}, "dice"),
        ({"unit": "a", "dice": [3, 5, 4, 4, 6]}, "dice"),
        ({"unit": "a", "dice": [3, 9]}, "dice"),
        ({"unit": "nobody", "seed": 1}, "nobody"),
        ({"unit": "a", "to": [[49.0, 25.0, 90.0]], "seed": 1}, "to: 1 poses"),
        ({"unit": "a", "seed": 1, "charge": ["e"]}, "charge"),
    ],
)
def test_disengage_bad_input_is_400_and_changes_nothing(
    engaged: TestClient, body: dict[str, Any], message: str
) -> None:
    before, log = text_of(engaged), engaged.get("/api/log").text
    r = engaged.post("/api/apply-disengage", json=body)
    assert r.status_code == 400, r.text
    assert message in r.json()["error"]
    assert (text_of(engaged), engaged.get("/api/log").text) == (before, log)


def test_a_unit_not_engaged_may_not_disengage_and_an_engaged_one_not_move_5_8_1(tmp_path: Path) -> None:
    """5.8.1 — the odds of a unit not engaged are the refusal, as the CLI prints it; applying is
    refused with the rule; an engaged unit cannot simply move (it fights or disengages)."""
    client = client_for(tmp_path, scenario_of(DISENGAGE, engaged=False).replace("y = 32.0", "y = 40.0"))
    assert client.post("/api/disengage", json={"unit": "a"}).json()["rule"] == "5.8.1"
    r = client.post("/api/apply-disengage", json={"unit": "a", "seed": 1})
    assert r.status_code == 422 and r.json()["rule"] == "5.8.1"
    engaged = client_for(tmp_path / "engaged", scenario_of(DISENGAGE))
    r = engaged.post("/api/apply-move", json={"unit": "a", "to": [[49.0, 25.0, 90.0], [51.0, 25.0, 90.0]]})
    assert r.status_code == 422 and r.json()["rule"] == "5.8.1"


def test_disengage_answers_in_polish(engaged: TestClient) -> None:
    """Issue 19 — the server's words in the page's language: the move's message, the notes of
    the applied disengagement, a refusal."""
    pl = {"accept-language": "pl"}
    doc = engaged.post("/api/disengage", json={"unit": "a"}, headers=pl).json()
    assert "12.00" in doc["message"] and "legal move" not in doc["message"]
    r = engaged.post("/api/apply-disengage", json={"unit": "a", "dice": [3, 5, 4, 4]}, headers=pl)
    notes = " ".join(r.json()["applied"]["notes"])
    assert "5.8.2" in notes and "disengages" not in notes
    r = engaged.post("/api/apply-disengage", json={"unit": "a", "seed": 1}, headers=pl)
    assert r.json()["rule"] == "2.3" and "has already acted" not in r.json()["error"]


# -- 5.6: the push-up ---------------------------------------------------------------------------


def test_push_up_after_a_melee_both_stood_5_6(tmp_path: Path) -> None:
    """5.6 — a melee in which both stood (every die misses), then a/2 pushed up 3 cm towards e:
    the live check is ``move --push-up``'s (at most 4 cm, 5.6.7), away is refused (5.6.6), the
    applied push-up is not an action and the log replays to the table."""
    client = client_for(tmp_path, scenario_of(PUSH_UP, engaged=False))
    r = client.post("/api/apply-melee", json={"attacker": "a", "defender": "e", "dice": [6, 6, 6, 6]})
    ruling = r.json()["applied"]["ruling"]
    assert ruling["outcome"] == {"attacker": "engaged", "defender": "engaged"}
    assert any(p["side"] == "attacker" and "a/2" in p["candidates"] for p in ruling["push_up"])

    r = client.post("/api/move", json={"unit": "a", "to": A2_PUSHED, "push_up": "e"})
    doc = r.json()
    assert (doc["legal"], doc["push_up"], doc["charge"]) == (True, "e", [])
    assert [(b["base"], b["distance"], b["allowed"]) for b in doc["bases"]] == [("a/2", 3.0, 4.0)]
    away = [*A2_PUSHED[:2], [53.0, 24.0, 90.0]]
    doc = client.post("/api/move", json={"unit": "a", "to": away, "push_up": "e"}).json()
    assert (doc["legal"], doc["rule"]) == (False, "5.6.6")
    r = client.post("/api/apply-move", json={"unit": "a", "to": away, "push_up": "e"})
    assert r.status_code == 422 and r.json()["rule"] == "5.6.6"

    r = client.post("/api/apply-move", json={"unit": "a", "to": A2_PUSHED, "push_up": "e"})
    assert r.status_code == 200, r.text
    assert r.json()["applied"]["action"] == "push_up"
    a = unit_of(client, "a")
    assert [[b["x"], b["y"], b["facing"]] for b in a["bases"]] == A2_PUSHED
    assert a["acted"] == "melee"  # the push-up is part of the melee, not an action of its own
    assert [line["action"] for line in client.get("/api/state").json()["log"]] == ["melee", "push_up"]
    assert replay(parse_log(client.get("/api/log").text, source="page")) == text_of(client)


def test_push_up_refusals_5_6_1(tmp_path: Path) -> None:
    """5.6.1 — no push-up between units not engaged (not recorded, not touching: no melee in which
    both stood): the live check and the action say so; a push-up is a move of its own (no
    charge); a friend is no enemy to push up towards."""
    client = client_for(tmp_path, scenario_of(PUSH_UP, engaged=False).replace("y = 32.0", "y = 40.0"))
    before = text_of(client)
    r = client.post("/api/move", json={"unit": "a", "to": A2_PUSHED, "push_up": "e"})
    assert r.status_code == 422 and r.json()["rule"] == "5.6.1"
    r = client.post("/api/apply-move", json={"unit": "a", "to": A2_PUSHED, "push_up": "e"})
    assert r.status_code == 422 and r.json()["rule"] == "5.6.1"
    r = client.post("/api/apply-move", json={"unit": "a", "to": A2_PUSHED, "push_up": "e", "charge": ["e"]})
    assert r.status_code == 400 and "push-up (5.6) is a move of its own" in r.json()["error"]
    r = client.post("/api/move", json={"unit": "a", "to": A2_PUSHED, "push_up": "a"})
    assert r.status_code == 400 and "towards the enemy unit" in r.json()["error"]
    r = client.post("/api/move", json={"unit": "a", "to": A2_PUSHED, "push_up": ""})
    assert r.status_code == 400 and "push_up" in r.json()["error"]
    assert text_of(client) == before
