"""``szwadron serve``: fire in the opponent's turn on the page's API (4.12.3, 4.12.4, 4.12.6).

- The fire at the first unit charging the shooter (4.12.6): ``fire`` and ``apply-fire`` with
  ``charged`` are ``fire --reaction charged`` and ``fire --reaction charged --apply``; the state
  shows which units ``stood`` (no action, no declaration in their own movement phase).
- The point of the target's move where it is fired at (4.12.3): ``target_at``, every base of the
  target as ``[x, y, facing]`` (the page's drag), is ``--target-at``; a target repulsed or
  panicking stops there.
- Out of range the fire is spent with no dice (4.12.4 declared, 4.5.5 at a charger): the ruling
  says ``lost``.

The tables and the moves are the known-answer cases of ``tests/cases/reaction_apply`` (worked by
hand from the Polish text, see ``tests/test_reaction_fire_apply.py``); every applied position is
compared with :func:`szwadron.game.apply.apply_fire`'s.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from szwadron.game.apply import apply_fire, position_from_text
from szwadron.game.log import parse_log, replay
from szwadron.movefile import load_move_file
from szwadron.web.app import create_app

CASES = Path(__file__).parent / "cases" / "reaction_apply"
MOVES = CASES / "moves"

#: b's charge into contact with a (charge_contact.toml) and the point of it 4 cm from a where a
#: fires at it (charge_point.toml), as the page sends them: every base's [x, y, facing].
CONTACT = [[10.0, 12.0, 270.0], [12.0, 12.0, 270.0]]
CHARGE_POINT = [[10.0, 16.0, 270.0], [12.0, 16.0, 270.0]]
#: b's move interrupted at y = 30 (18 cm from a: in range) and at y = 38 (26 cm: out of range).
INTERRUPT = [[10.0, 30.0, 270.0], [12.0, 30.0, 270.0]]
FAR = [[10.0, 38.0, 270.0], [12.0, 38.0, 270.0]]


def case_text(name: str) -> str:
    return (CASES / name).read_text(encoding="utf-8")


def client_of(tmp_path: Path, text: str) -> TestClient:
    (tmp_path / "t.toml").write_text(text, encoding="utf-8")
    return TestClient(create_app(tmp_path / "t.toml"))


def unit(doc: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in doc["units"] if u["id"] == uid)


def text_of(client: TestClient) -> str:
    return client.post("/api/toml", json={}).text


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    doc: dict[str, Any] = r.json()
    return doc


def next_phases(client: TestClient, n: int) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for _ in range(n):
        doc = post(client, "/api/next-phase", {})
    return doc


@pytest.fixture()
def charger(tmp_path: Path) -> TestClient:
    """4_12_6_charger.toml: side A's movement phase ends with a having stood; in side B's
    movement phase b charges a into contact."""
    client = client_of(tmp_path, case_text("4_12_6_charger.toml"))
    next_phases(client, 2)
    post(client, "/api/apply-move", {"unit": "b", "to": CONTACT, "charge": ["a"]})
    return client


@pytest.fixture()
def declared(tmp_path: Path) -> TestClient:
    """4_12_3_interrupt.toml: a declares; side B's movement phase."""
    client = client_of(tmp_path, case_text("4_12_3_interrupt.toml"))
    post(client, "/api/apply-declare", {"shooter": "a"})
    next_phases(client, 2)
    return client


def test_4_12_6_stood_in_the_state_and_named_at_the_phase_end(tmp_path: Path) -> None:
    """4.12.6 — the end of side A's movement phase marks a (no action, no declaration) as having
    stood, and says so; the mark is gone at the end of side B's movement phase."""
    client = client_of(tmp_path, case_text("4_12_6_charger.toml"))
    assert unit(client.get("/api/state").json(), "a")["stood"] is False
    doc = post(client, "/api/next-phase", {})
    assert unit(doc["state"], "a")["stood"] is True and unit(doc["state"], "b")["stood"] is False
    assert any("4.12.6" in n and "a" in n for n in doc["applied"]["notes"])
    doc = next_phases(client, 2)  # B's morale, B's movement phase ends
    assert unit(doc["state"], "a")["stood"] is False and unit(doc["state"], "b")["stood"] is True


def test_4_12_6_fire_at_the_charger_placed_at_a_point_of_its_charge(charger: TestClient) -> None:
    """The worked case: the question with ``charged`` and ``target_at`` is legal (reaction
    4.12.6, b placed 4 cm from a); dice 1, 2 and 6, 6: b loses a figure and panics where it was
    fired at (y = 16); a's fire at a charger is spent; the position is ``apply_fire``'s with the
    move file; the log replays to it."""
    body = {"shooter": "a", "target": "b", "charged": True, "target_at": CHARGE_POINT}
    q = post(charger, "/api/fire", body)
    assert q["legal"] and q["reaction"] == {"kind": "charged", "rule": "4.12.6", "lost": False}
    assert [(t["base"], t["y"]) for t in q["target_at"]] == [("b/0", 16.0), ("b/1", 16.0)]
    before = text_of(charger)
    doc = post(charger, "/api/apply-fire", {**body, "dice": [1, 2], "morale_dice": [6, 6]})
    applied = doc["applied"]
    assert applied["inputs"]["charged"] is True and len(applied["inputs"]["target_at"]) == 2
    assert applied["ruling"]["morale"] == "panic" and any("4.12.3" in n for n in applied["notes"])
    a, b = unit(doc["state"], "a"), unit(doc["state"], "b")
    assert a["stood"] is False and b["state"] == "panic" and [x["y"] for x in b["bases"]] == [16.0]
    expected = apply_fire(
        position_from_text(before, "t.toml"),
        "a",
        "b",
        dice=[1, 2],
        morale_dice=[6, 6],
        charged=True,
        target_at=load_move_file(MOVES / "charge_point.toml"),
    ).text
    assert text_of(charger) == expected
    assert replay(parse_log(charger.get("/api/log").text, source="page")) == expected
    # spent (4.12.6: the first charger only, once)
    again = charger.post("/api/apply-fire", json={**body, "target_at": CHARGE_POINT[:1], "seed": 1})
    assert again.status_code == 422 and again.json()["rule"] == "4.12.6"


def test_4_12_6_rolled_from_a_seed_as_the_library(charger: TestClient) -> None:
    before = text_of(charger)
    body = {"shooter": "a", "target": "b", "charged": True, "target_at": CHARGE_POINT, "seed": 2059}
    post(charger, "/api/apply-fire", body)
    expected = apply_fire(
        position_from_text(before, "t"),
        "a",
        "b",
        seed=2059,
        charged=True,
        target_at={
            "unit": "b",
            "bases": [{"index": i, "x": p[0], "y": p[1], "facing": p[2]} for i, p in enumerate(CHARGE_POINT)],
        },
    ).text
    assert text_of(charger) == expected


def test_4_12_6_fire_at_the_charger_where_it_stands(tmp_path: Path) -> None:
    """Fired at before its charge is moved, where it stands (no ``target_at``, 10 cm away): the
    answer and the position are the library's."""
    client = client_of(tmp_path, case_text("4_12_6_charger.toml"))
    next_phases(client, 2)
    q = post(client, "/api/fire", {"shooter": "a", "target": "b", "charged": True})
    assert q["legal"] and q["reaction"]["kind"] == "charged" and q["target_at"] is None
    before = text_of(client)
    post(client, "/api/apply-fire", {"shooter": "a", "target": "b", "charged": True, "dice": [4, 5]})
    assert (
        text_of(client)
        == apply_fire(position_from_text(before, "t"), "a", "b", dice=[4, 5], charged=True).text
    )


def test_4_12_6_charger_in_contact_not_placed_is_refused(charger: TestClient) -> None:
    """A charger in contact, not placed at a point of its charge, engages the shooter (4.1.1):
    refused, nothing changed."""
    q = post(charger, "/api/fire", {"shooter": "a", "target": "b", "charged": True})
    assert not q["legal"] and q["reason"]["rule"] == "4.1.1"
    before, log = text_of(charger), charger.get("/api/log").text
    r = charger.post("/api/apply-fire", json={"shooter": "a", "target": "b", "charged": True, "dice": [1, 1]})
    assert r.status_code == 422 and r.json()["rule"] == "4.1.1"
    assert (text_of(charger), charger.get("/api/log").text) == (before, log)


def test_4_12_6_refused_in_its_own_turn_and_after_acting(tmp_path: Path) -> None:
    """Side A's own movement phase: refused (4.12.6, own turn); a unit that declared has not
    stood: refused in the opponent's turn (4.12.6). Nothing changes."""
    client = client_of(tmp_path, case_text("4_12_6_charger.toml"))
    before = text_of(client)
    body = {"shooter": "a", "target": "b", "charged": True, "target_at": CHARGE_POINT, "seed": 1}
    r = client.post("/api/apply-fire", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "4.12.6"
    assert text_of(client) == before
    post(client, "/api/apply-declare", {"shooter": "a"})
    next_phases(client, 2)
    assert unit(client.get("/api/state").json(), "a")["stood"] is False
    r = client.post("/api/apply-fire", json=body)
    assert r.status_code == 422 and r.json()["rule"] == "4.12.6"


def test_bad_reaction_requests_are_one_message(charger: TestClient) -> None:
    """Both forms at once, poses for another number of bases, a pose off the table, a non-number:
    one message naming the field (4xx), nothing changed."""
    before = text_of(charger)
    base = {"shooter": "a", "target": "b", "seed": 3}
    for body, needle in (
        ({**base, "charged": True, "declared": True}, "reaction"),
        ({**base, "charged": True, "target_at": CHARGE_POINT[:1]}, "target_at"),
        ({**base, "charged": True, "target_at": [[10.0, 16.0, 270.0], [12.0, "x", 270.0]]}, "target_at"),
        ({**base, "charged": True, "target_at": [[10.0, 16.0, 270.0], [200.0, 16.0, 270.0]]}, ""),
    ):
        for path in ("/api/fire", "/api/apply-fire"):
            sent = body if path == "/api/apply-fire" else {k: v for k, v in body.items() if k != "seed"}
            r = charger.post(path, json=sent)
            assert 400 <= r.status_code < 500 and needle in r.json()["error"], (path, r.text)
    assert text_of(charger) == before


def test_4_12_3_declared_fire_interrupts_the_move(declared: TestClient) -> None:
    """The worked case: a interrupts b's move at y = 30 (reaction 4.12.3); 1, 2 and 6, 1: b is
    repulsed and stops there; the declaration is spent; ``apply_fire``'s position."""
    body = {"shooter": "a", "target": "b", "declared": True, "target_at": INTERRUPT}
    q = post(declared, "/api/fire", body)
    assert q["legal"] and q["reaction"] == {"kind": "declared", "rule": "4.12.3", "lost": False}
    before = text_of(declared)
    doc = post(declared, "/api/apply-fire", {**body, "dice": [1, 2], "morale_dice": [6, 1]})
    b = unit(doc["state"], "b")
    assert b["acted"] == "move" and [x["y"] for x in b["bases"]] == [30.0]
    assert unit(doc["state"], "a")["declared"] is False
    assert (
        text_of(declared)
        == apply_fire(
            position_from_text(before, "t"),
            "a",
            "b",
            dice=[1, 2],
            morale_dice=[6, 1],
            declared=True,
            target_at=load_move_file(MOVES / "interrupt_point.toml"),
        ).text
    )


def test_4_12_3_declared_interrupt_must_move_the_target(declared: TestClient) -> None:
    """4.12.3 — "po tym, jak przeciwnik przesunął pierwszą figurkę": poses where it stands are no
    interrupt (422)."""
    stands = [[10.0, 40.0, 270.0], [12.0, 40.0, 270.0]]
    r = declared.post(
        "/api/apply-fire",
        json={"shooter": "a", "target": "b", "declared": True, "target_at": stands, "seed": 1},
    )
    assert r.status_code == 422 and r.json()["rule"] == "4.12.3"


def test_4_12_4_declared_fire_out_of_range_is_spent_with_no_dice(declared: TestClient) -> None:
    """4.12.4 — interrupted out of range (y = 38): the question says lost; applied without dice it
    is spent (ruling ``lost``, no dice), b stays where the position has it; with dice it is bad
    input; the log line says it."""
    body = {"shooter": "a", "target": "b", "declared": True, "target_at": FAR}
    q = post(declared, "/api/fire", body)
    assert not q["legal"] and q["reason"]["rule"] == "4.12.4" and q["reaction"]["lost"] is True
    r = declared.post("/api/apply-fire", json={**body, "dice": [1, 1]})
    assert r.status_code == 400 and "dice" in r.json()["error"]
    before = text_of(declared)
    doc = post(declared, "/api/apply-fire", body)
    applied = doc["applied"]
    assert applied["ruling"]["lost"] == "4.5.5" and applied["ruling"]["reason"]["rule"] == "4.12.4"
    assert applied["dice"] == {} and any("4.12.4" in n for n in applied["notes"])
    assert unit(doc["state"], "a")["declared"] is False
    assert [x["y"] for x in unit(doc["state"], "b")["bases"]] == [40.0, 40.0]
    assert doc["state"]["log"][-1]["ruling"]["lost"] == "4.5.5"
    expected = apply_fire(
        position_from_text(before, "t"),
        "a",
        "b",
        declared=True,
        target_at=load_move_file(MOVES / "interrupt_far.toml"),
    ).text
    assert text_of(declared) == expected


def test_4_12_5_declared_fire_at_the_phase_end_out_of_range_is_spent(declared: TestClient) -> None:
    """4.12.5 — no interrupt, the target 28 cm away (out of range, 4.5.1): the page spends the
    declaration (lost, no dice)."""
    body = {"shooter": "a", "target": "b", "declared": True}
    q = post(declared, "/api/fire", body)
    assert not q["legal"] and q["reason"]["rule"] == "4.5.1" and q["reaction"]["rule"] == "4.12.5"
    doc = post(declared, "/api/apply-fire", body)
    assert doc["applied"]["ruling"]["lost"] == "4.5.5" and unit(doc["state"], "a")["declared"] is False


def test_4_5_5_charged_fire_out_of_range_is_spent(tmp_path: Path) -> None:
    """4.5.5, 4.12.6 — the charger placed out of range: the fire at it is lost, ``stood`` gone."""
    client = client_of(tmp_path, case_text("4_12_6_charger.toml"))
    next_phases(client, 2)
    far = [[40.0, 50.0, 270.0], [42.0, 50.0, 270.0]]
    body = {"shooter": "a", "target": "c", "charged": True, "target_at": far}
    q = post(client, "/api/fire", body)
    assert not q["legal"] and q["reason"]["rule"] == "4.5.1"
    doc = post(client, "/api/apply-fire", body)
    assert doc["applied"]["ruling"]["lost"] == "4.5.5" and unit(doc["state"], "a")["stood"] is False


def test_undo_brings_the_fire_at_a_charger_back(charger: TestClient) -> None:
    body = {
        "shooter": "a",
        "target": "b",
        "charged": True,
        "target_at": CHARGE_POINT,
        "dice": [1, 2],
        "morale_dice": [6, 6],
    }
    post(charger, "/api/apply-fire", body)
    doc = post(charger, "/api/undo", {})
    assert doc["undone"]["action"] == "fire"
    assert unit(doc["state"], "a")["stood"] is True
    assert [x["y"] for x in unit(doc["state"], "b")["bases"]] == [12.0, 12.0]


def test_polish_answers(charger: TestClient) -> None:
    """The notes and a refusal in the language of the request (accept-language: pl)."""
    pl = {"accept-language": "pl"}
    body = {
        "shooter": "a",
        "target": "b",
        "charged": True,
        "target_at": CHARGE_POINT,
        "dice": [1, 2],
        "morale_dice": [6, 6],
    }
    r = charger.post("/api/apply-fire", json=body, headers=pl)
    assert r.status_code == 200, r.text
    notes = " ".join(r.json()["applied"]["notes"])
    assert "4.12.3" in notes and "stop" not in notes, notes
    r = charger.post("/api/apply-fire", json={**body, "declared": True}, headers=pl)
    assert r.status_code == 400 and "4.12.6" in r.json()["error"] and "not both" not in r.json()["error"]
