"""``szwadron serve``: declared fire (4.12.2-4.12.5) on the page's API — ``apply-declare`` is the
unit's action in its own movement phase (``fire --declare --apply``), refused as the command line
refuses it (2.3, 4.1, 4.12: rule and message, nothing changed); in the opponent's movement phase
``fire`` with ``declared`` is the ``fire --reaction declared`` answer and ``apply-fire`` with
``declared`` fires it where the target stands (``fire --reaction declared --apply``), spending the
declaration; the game log holds both lines and undo goes back over them. The table is
``tests/test_declared_fire.py``'s: side A's line (a) 15 cm from side B's (e), A's movement phase.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from szwadron.game.apply import apply_declare, apply_fire, position_from_text
from szwadron.game.log import parse_log, replay
from szwadron.web.app import create_app

LINE = '{ id = "inf", name = "Line", kind = "infantry", R = 12, W = 2, SW = 1, SO = 1, Z = 24, UW = 3, C = 3, M = 4 }'


def table_text(so: int = 1) -> str:
    """Side A's line (a) 15 cm from side B's (e); round 1, side A's movement phase."""
    profile = LINE.replace("SO = 1", f"SO = {so}")
    return f"""name = "declared fire"

[table]
width = 100.0
depth = 100.0

[turn]
round = 1
side = "A"
phase = "movement"

[[units]]
id = "a"
side = "A"
profile = {profile}
bases = [ {{ x = 49.0, y = 30.0, facing = 90.0 }}, {{ x = 51.0, y = 30.0, facing = 90.0 }} ]

[[units]]
id = "e"
side = "B"
profile = {LINE}
bases = [ {{ x = 49.0, y = 45.0, facing = 270.0 }}, {{ x = 51.0, y = 45.0, facing = 270.0 }} ]
"""


def client_of(tmp_path: Path, text: str) -> TestClient:
    (tmp_path / "t.toml").write_text(text, encoding="utf-8")
    return TestClient(create_app(tmp_path / "t.toml"))


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return client_of(tmp_path, table_text())


def unit(doc: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in doc["units"] if u["id"] == uid)


def text_of(client: TestClient) -> str:
    return client.post("/api/toml", json={}).text


def to_bs_movement(client: TestClient) -> dict[str, Any]:
    """a declares; the game goes on to side B's movement phase; the state there."""
    r = client.post("/api/apply-declare", json={"shooter": "a"})
    assert r.status_code == 200, r.text
    for _ in range(2):
        r = client.post("/api/next-phase", json={})
        assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()["state"]
    assert (state["turn"]["side"], state["turn"]["phase"]) == ("B", "movement")
    return state


def test_4_12_2_declare_is_the_units_action_as_the_cli(client: TestClient, tmp_path: Path) -> None:
    """4.12.2 — the declaration applied: the unit's action (``acted = "declare"``) and
    ``declared`` in the state; the next position is ``apply_declare``'s; a log line."""
    before = text_of(client)
    r = client.post("/api/apply-declare", json={"shooter": "a"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["applied"]["action"] == "declare" and body["applied"]["inputs"] == {"shooter": "a"}
    assert any("4.12.2" in n for n in body["applied"]["notes"])
    a = unit(body["state"], "a")
    assert (a["acted"], a["declared"]) == ("declare", True)
    assert unit(body["state"], "e")["declared"] is False
    assert [line["action"] for line in body["state"]["log"]] == ["declare"]
    expected = apply_declare(position_from_text(before, "t.toml"), "a").text
    assert text_of(client) == expected


@pytest.mark.parametrize(
    ("text", "first", "rule"),
    [
        (table_text(), True, "2.3"),  # one action a phase: declared already
        (table_text(so=0), False, "4.1"),  # no fire to declare
        (table_text().replace('side = "A"\nphase', 'side = "B"\nphase', 1), False, "2.3"),  # not its turn
    ],
)
def test_refused_declare_is_422_with_rule_and_changes_nothing(
    tmp_path: Path, text: str, first: bool, rule: str
) -> None:
    """2.3, 4.1 — a declaration the rules refuse: 422 with the rule and the message; the table and
    the game log are as before."""
    client = client_of(tmp_path, text)
    if first:
        assert client.post("/api/apply-declare", json={"shooter": "a"}).status_code == 200
    before, log = text_of(client), client.get("/api/log").text
    r = client.post("/api/apply-declare", json={"shooter": "a"})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == rule and r.json()["error"]
    assert (text_of(client), client.get("/api/log").text) == (before, log)


def test_declare_bad_input_is_one_message(client: TestClient) -> None:
    """Bad input: an unknown unit, a missing or unknown field — one message, 4xx, nothing changed."""
    before = text_of(client)
    for body, needle in (({"shooter": "nobody"}, "nobody"), ({}, "shooter"), ({"shooter": "a", "x": 1}, "x")):
        r = client.post("/api/apply-declare", json=body)
        assert 400 <= r.status_code < 500 and needle in r.json()["error"], r.text
    assert text_of(client) == before


def test_4_12_5_declared_fire_in_the_opponents_phase(client: TestClient) -> None:
    """4.12.5 — in side B's movement phase: the question with ``declared`` is the declared fire
    (reaction 4.12.5); applied with typed dice (2 dice at C 3 at 15 cm), the declaration is spent
    and the next position is ``apply_fire(..., declared=True)``'s; a log line with
    ``declared``; a second time it is refused (4.12.2)."""
    state = to_bs_movement(client)
    assert unit(state, "a")["declared"] is True and unit(state, "a")["acted"] is None
    q = client.post("/api/fire", json={"shooter": "a", "target": "e", "declared": True}).json()
    assert q["legal"] and q["reaction"] == {"kind": "declared", "rule": "4.12.5", "lost": False}
    before = text_of(client)
    r = client.post(
        "/api/apply-fire",
        json={"shooter": "a", "target": "e", "declared": True, "dice": [1, 1], "morale_dice": [1]},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["applied"]["action"] == "fire" and body["applied"]["inputs"]["declared"] is True
    assert unit(body["state"], "a")["declared"] is False
    assert [line["action"] for line in body["state"]["log"]] == ["declare", "turn", "turn", "fire"]
    expected = apply_fire(
        position_from_text(before, "t.toml"), "a", "e", dice=[1, 1], morale_dice=[1], declared=True
    ).text
    assert text_of(client) == expected
    assert replay(parse_log(client.get("/api/log").text, source="page")) == expected
    again = client.post("/api/apply-fire", json={"shooter": "a", "target": "e", "declared": True, "seed": 3})
    assert again.status_code == 422 and again.json()["rule"] == "4.12.2"


def test_declared_fire_refused_in_its_own_turn_and_rolled_from_a_seed(client: TestClient) -> None:
    """4.12.3 — not in its own turn (422, nothing changed); in the opponent's movement phase
    rolled from a seed, as ``apply_fire(seed=...)``."""
    client.post("/api/apply-declare", json={"shooter": "a"})
    before = text_of(client)
    r = client.post("/api/apply-fire", json={"shooter": "a", "target": "e", "declared": True, "seed": 1})
    assert r.status_code == 422 and r.json()["rule"] == "4.12.3"
    assert text_of(client) == before
    for _ in range(2):
        client.post("/api/next-phase", json={})
    before = text_of(client)
    r = client.post("/api/apply-fire", json={"shooter": "a", "target": "e", "declared": True, "seed": 2059})
    assert r.status_code == 200, r.text
    assert (
        text_of(client)
        == apply_fire(position_from_text(before, "t"), "a", "e", seed=2059, declared=True).text
    )


def test_undo_brings_the_declaration_back(client: TestClient) -> None:
    """Undo of the declared fire: the declaration is there again; undo of the declaration: the
    unit has not acted."""
    to_bs_movement(client)
    client.post("/api/apply-fire", json={"shooter": "a", "target": "e", "declared": True, "seed": 5})
    r = client.post("/api/undo", json={})
    assert r.status_code == 200 and r.json()["undone"]["action"] == "fire"
    assert unit(r.json()["state"], "a")["declared"] is True
    for _ in range(2):
        client.post("/api/undo", json={})
    r = client.post("/api/undo", json={})
    assert r.json()["undone"]["action"] == "declare"
    a = unit(r.json()["state"], "a")
    assert (a["acted"], a["declared"], r.json()["state"]["log"]) == (None, False, [])


def test_4_12_5_unfired_declaration_lost_at_the_phase_end(client: TestClient) -> None:
    """4.12.5 — the page's next phase after side B's movement phase drops an unfired declaration."""
    to_bs_movement(client)
    r = client.post("/api/next-phase", json={})
    assert unit(r.json()["state"], "a")["declared"] is False


def test_polish_refusal(client: TestClient) -> None:
    """The refusal in the language of the request (accept-language: pl)."""
    client.post("/api/apply-declare", json={"shooter": "a"})
    r = client.post(
        "/api/apply-fire",
        json={"shooter": "a", "target": "e", "declared": True, "seed": 1},
        headers={"accept-language": "pl"},
    )
    assert r.status_code == 422 and r.json()["rule"] == "4.12.3"
    assert "faza" in r.json()["error"] or "fazie" in r.json()["error"], r.json()["error"]
