"""``szwadron serve``: the combined melee (5.10) — several units on a side. The page's odds are
``melee --attacker A B --defender D --json`` with ``dice_order`` (the order the dice are typed
in), its next position ``--apply``'s; bad input is one message and changes nothing; the game log
replays to the page's table.

The table is the hand-worked case ``tests/cases/melee_combined/5_10_two_attackers_one_defender``
(its [check]/[expected] tables stripped; its odds are checked in ``test_combined_melee.py``):
a (UW 3) and b (UW 4), one base each, attack d (two bases, M 4), all W 1."""

from __future__ import annotations

import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from szwadron.game.log import parse_log, replay
from szwadron.web.app import create_app

CASE = Path(__file__).parent / "cases" / "melee_combined" / "5_10_two_attackers_one_defender.toml"
BOTH = {"attackers": ["a", "b"], "defenders": ["d"]}
#: a's die 1 (hits d/0), b's 5 (misses); d/0's 4 misses a, d/1's 2 hits b; d's repulse test 2 (≤ 2, passed)
DICE = [1, 5, 4, 2, 2]


def scenario() -> str:
    """The case as a plain position (without its [check]/[expected] tables)."""
    text = CASE.read_text(encoding="utf-8")
    return text[: text.index("[check]")]


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    path = tmp_path / "table.toml"
    path.write_text(scenario(), encoding="utf-8")
    return TestClient(create_app(path))


def text_of(client: TestClient) -> str:
    return client.post("/api/toml", json={}).text


def units_of(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in state["units"]}


def near(p: float, q: str) -> bool:
    return abs(p - float(Fraction(q))) < 1e-12


def test_combined_odds_every_unit_and_the_dice_order_5_10(client: TestClient) -> None:
    """5.10.3-5.10.5 — the hand-worked odds: d loses 0, 1, 2 with 1/6, 1/2, 1/3; d engaged 1/4;
    a and b each destroyed 1/2; the dice are typed group by group (the attackers' on d, then d's
    on a and on b), then the morale tests, d's first."""
    r = client.post("/api/melee-combined", json=BOTH)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert (doc["attackers"], doc["defenders"], doc["first_strike"]) == (["a", "b"], ["d"], None)
    groups = [(g["side"], g["target"], g["uw"], g["dice"], g["figures"]) for g in doc["groups"]]
    assert groups == [
        ("attacker", "d", 3, 1, ["a/0"]),
        ("attacker", "d", 4, 1, ["b/0"]),
        ("defender", "a", 3, 1, ["d/0"]),
        ("defender", "b", 3, 1, ["d/1"]),
    ]
    units = {u["unit"]: u for u in doc["units"]}
    assert all(near(p, q) for p, q in zip(units["d"]["removed_pmf"], ["1/6", "1/2", "1/3"], strict=True))
    d_out = {o["outcome"]: o["p"] for o in units["d"]["outcomes"]}
    assert near(d_out["engaged"], "1/4") and near(d_out["destroyed"], "1/3") and near(d_out["panic"], "2/9")
    for u in ("a", "b"):
        out = {o["outcome"]: o["p"] for o in units[u]["outcomes"]}
        assert near(out["destroyed"], "1/2") and near(out["held"], "1/3") and near(out["engaged"], "1/6")
    order = doc["dice_order"]
    assert [s["step"] for s in order] == ["group", "group", "group", "group", "tests", "after"]
    assert [(s["side"], s["target"], s["uw"]) for s in order[:4]] == [
        ("attacker", "d", 3),
        ("attacker", "d", 4),
        ("defender", "a", 3),
        ("defender", "b", 3),
    ]
    assert (order[4]["first"], order[4]["then"]) == (["d"], ["a", "b"])


def test_combined_melee_applied_with_dice_equals_the_cli_and_replays_5_10(
    client: TestClient, tmp_path: Path
) -> None:
    """5.10, 5.5, PD-18 — dice 1, 5, 4, 2, 2: d loses d/0, b is destroyed and leaves the table, d
    passes its repulse test; a and d stay engaged (5.5.7) and push up (5.10.6). The page's next
    position is ``melee --apply``'s; the log replays to it; undo goes back."""
    start = text_of(client)
    r = client.post("/api/apply-melee-combined", json={**BOTH, "dice": DICE})
    assert r.status_code == 200, r.text
    applied = r.json()["applied"]
    assert applied["action"] == "melee"
    assert applied["inputs"] == BOTH
    assert applied["ruling"]["outcomes"] == {"a": "engaged", "b": "destroyed", "d": "engaged"}
    assert applied["ruling"]["removed"] == {"a": [], "b": ["b/0"], "d": ["d/0"]}
    assert applied["ruling"]["push_up"] == [["a", "d"]]
    assert [s["faces"] for s in applied["dice"]["strikes"]] == [[1], [5], [4], [2]]
    assert [(t["unit"], t["test"], t["passed"]) for t in applied["dice"]["tests"]] == [("d", "repulse", True)]
    assert "b is destroyed and leaves the table (PD-18)" in applied["notes"]
    state = r.json()["state"]
    units = units_of(state)
    assert set(units) == {"a", "d"}
    assert (units["a"]["engaged_with"], units["a"]["acted"]) == (["d"], "melee")
    assert (units["d"]["engaged_with"], units["d"]["strength"], units["d"]["lost"]) == (["a"], 1, 1)
    assert [line["action"] for line in state["log"]] == ["melee"]

    scen = tmp_path / "cli.toml"
    scen.write_text(start, encoding="utf-8")
    command = ["melee", str(scen), "--attacker", "a", "b", "--defender", "d", "--dice", "1,5,4,2,2"]
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", *command, "--apply", "-o", str(tmp_path / "next.toml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert text_of(client) == (tmp_path / "next.toml").read_text(encoding="utf-8")
    assert replay(parse_log(client.get("/api/log").text, source="page")) == text_of(client)

    r = client.post("/api/apply-melee-combined", json={"attackers": ["a"], "defenders": ["d"], "seed": 1})
    assert r.status_code == 422 and r.json()["rule"] == "2.3"  # a has acted: its melee is done
    assert client.post("/api/undo", json={}).json()["undone"] == {"n": 1, "action": "melee"}
    assert text_of(client) == start


def test_combined_melee_rolled_from_a_seed_and_the_options_5_10(client: TestClient) -> None:
    """A seed rolls the dice (recorded in the log line); ``pursue`` and ``continuing`` reach the
    log's inputs (6.3.6; 5.7.4)."""
    r = client.post("/api/apply-melee-combined", json={**BOTH, "seed": 7, "pursue": True, "continuing": True})
    assert r.status_code == 200, r.text
    applied = r.json()["applied"]
    assert applied["dice"]["seed"] == 7
    assert applied["inputs"] == {**BOTH, "continuing": True, "pursue": True}
    assert set(applied["ruling"]["outcomes"]) == {"a", "b", "d"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({**BOTH, "dice": [1, 5, 4]}, "dice: gives 3 dice"),
        ({**BOTH}, "dice: missing"),
        ({**BOTH, "dice": [1, 5, 4, 2, 2, 6]}, "dice"),
        ({**BOTH, "dice": DICE, "declare_defence": True}, "declare_defence: a side declares defence (5.7.4)"),
        ({"attackers": [], "defenders": ["d"], "seed": 1}, "attackers"),
        ({"attackers": ["a"] * 7, "defenders": ["d"], "seed": 1}, "attackers"),
        ({"attackers": ["a", "x"], "defenders": ["d"], "seed": 1}, "'x'"),
        ({"attackers": ["a", "a"], "defenders": ["d"], "seed": 1}, "a named twice"),
        ({"attackers": ["a", ""], "defenders": ["d"], "seed": 1}, "attackers"),
        ({**BOTH, "dice": DICE, "attacker": "a"}, "attacker: unknown field"),
    ],
)
def test_combined_melee_bad_input_is_400_and_changes_nothing(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    before = text_of(client)
    r = client.post("/api/apply-melee-combined", json=body)
    assert r.status_code == 400, r.text
    assert message in r.json()["error"], r.json()["error"]
    assert text_of(client) == before
    assert client.get("/api/state").json()["log"] == []


def test_no_contact_is_no_combined_melee_5_3_2(client: TestClient) -> None:
    """5.3.2 — b moved away (5 cm back) is not in the melee: the odds say so with the rule, the
    apply is refused (422): no action in the log, no figure lost (the dragged b stays where the
    page put it: the page's free moves become the set-up)."""
    positions = {"b": [[11.0, 5.0, 90.0]]}
    r = client.post("/api/melee-combined", json={**BOTH, "positions": positions})
    assert r.status_code == 200, r.text
    assert r.json()["rule"].startswith("5.") and r.json()["error"]
    r = client.post("/api/apply-melee-combined", json={**BOTH, "positions": positions, "dice": DICE})
    assert r.status_code == 422, r.text
    state = client.get("/api/state").json()
    assert state["log"] == []
    assert {u["id"]: u["lost"] for u in state["units"]} == {"a": 0, "b": 0, "d": 0}


def test_combined_melee_answers_in_polish(client: TestClient) -> None:
    """Issue 19: the notes and the refusals in Polish."""
    pl = {"accept-language": "pl"}
    r = client.post(
        "/api/apply-melee-combined", json={**BOTH, "dice": DICE, "declare_defence": True}, headers=pl
    )
    assert r.status_code == 400
    assert "tylko w kontynuowanej walce wręcz" in r.json()["error"], r.json()["error"]
    r = client.post("/api/apply-melee-combined", json={**BOTH, "dice": DICE}, headers=pl)
    assert r.status_code == 200, r.text
    assert "b jest zniszczony i schodzi ze stołu (PD-18)" in r.json()["applied"]["notes"]


def test_single_melee_request_takes_pursue_6_3_6(tmp_path: Path) -> None:
    """The one-a-side melee keeps its request, with ``pursue`` (6.3.6) now passed on."""
    path = tmp_path / "table.toml"
    path.write_text(scenario(), encoding="utf-8")
    client = TestClient(create_app(path))
    r = client.post("/api/apply-melee", json={"attacker": "a", "defender": "d", "seed": 3, "pursue": True})
    assert r.status_code == 200, r.text
    assert r.json()["applied"]["inputs"].get("pursue") is True


def test_declared_defence_reaches_the_rules_5_7_4(client: TestClient) -> None:
    """5.7.4 — in a continuing melee the attackers may declare defence only holding the terrain's
    advantage: on open ground the odds answer the rule, the apply is refused with it."""
    body = {**BOTH, "continuing": True, "declare_defence": True}
    r = client.post("/api/melee-combined", json=body)
    assert r.status_code == 200 and r.json()["rule"] == "5.7.4", r.text
    r = client.post("/api/apply-melee-combined", json={**body, "dice": DICE})
    assert r.status_code == 422 and r.json()["rule"] == "5.7.4", r.text
