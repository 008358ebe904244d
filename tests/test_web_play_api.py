"""``szwadron serve``'s actions (issue 18 after issue 17): applied through the functions of
``--apply`` (:mod:`szwadron.game.apply`), so the page's next position is the command line's; the
session's game log replays to it; undo goes back; bad input is one message with a 4xx and
changes nothing; the set-up (placing units, terrain) changes only before the first action; no
file is written by any of them."""

from __future__ import annotations

import shutil
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
EXAMPLE = ROOT / "scenarios" / "example.toml"

HUSSARS_10 = [[15.0 + 2 * i, 40.0, 90.0] for i in range(4)]
VOLLEY = {"shooter": "fr-battery", "target": "au-battery", "dice": [1, 6, 6], "remainder_dice": [4]}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLE, tmp_path / "example.toml")
    return tmp_path


@pytest.fixture()
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder / "example.toml"))


def text_of(client: TestClient) -> str:
    return client.post("/api/toml", json={}).text


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "szwadron", *args], capture_output=True, text=True, check=False
    )


def test_applied_move_and_fire_equal_the_cli_apply_3_4(client: TestClient, tmp_path: Path) -> None:
    """Section 3 and 4: the page's next positions are ``move --apply`` and ``fire --apply``'s, and
    the game log of the session replays to them."""
    r = client.post("/api/apply-move", json={"unit": "fr-hussars", "to": HUSSARS_10})
    assert r.status_code == 200, r.text
    assert r.json()["applied"]["action"] == "move"
    moved = tmp_path / "move.toml"
    moved.write_text(
        "".join(
            f"[[bases]]\nindex = {i}\nx = {x}\ny = {y}\nfacing = {f}\n"
            for i, (x, y, f) in enumerate(HUSSARS_10)
        )
    )
    out = run(
        "move",
        str(EXAMPLE),
        "--unit",
        "fr-hussars",
        "--to",
        str(moved),
        "--apply",
        "-o",
        str(tmp_path / "1.toml"),
    )
    assert out.returncode == 0, out.stderr
    assert text_of(client) == (tmp_path / "1.toml").read_text()

    r = client.post("/api/apply-fire", json={**VOLLEY, "morale_dice": [6, 6]})
    assert r.status_code == 200, r.text
    assert r.json()["applied"]["ruling"]["state"] == "panic"
    out = run(
        "fire",
        str(tmp_path / "1.toml"),
        "--shooter",
        "fr-battery",
        "--target",
        "au-battery",
        "--dice",
        "1,6,6",
        "--remainder-dice",
        "4",
        "--morale-dice",
        "6,6",
        "--apply",
        "-o",
        str(tmp_path / "2.toml"),
    )
    assert out.returncode == 0, out.stderr
    assert text_of(client) == (tmp_path / "2.toml").read_text()

    log = parse_log(client.get("/api/log").text, source="page")
    assert [line.get("action") for line in log[1:]] == ["move", "fire"]
    assert replay(log) == text_of(client)
    state = client.get("/api/state").json()
    battery = next(u for u in state["units"] if u["id"] == "au-battery")
    assert (battery["state"], battery["lost"]) == ("panic", 0)
    assert [a["action"] for a in state["log"]] == ["move", "fire"]


def test_undo_goes_back_one_action(client: TestClient) -> None:
    start = text_of(client)
    client.post("/api/apply-move", json={"unit": "fr-hussars", "to": HUSSARS_10})
    after_move = text_of(client)
    client.post("/api/apply-fire", json={**VOLLEY, "morale_dice": [1]})
    assert text_of(client) != after_move
    r = client.post("/api/undo", json={})
    assert r.json()["undone"] == {"n": 2, "action": "fire"}
    assert text_of(client) == after_move
    client.post("/api/undo", json={})
    assert text_of(client) == start
    r = client.post("/api/undo", json={})
    assert r.status_code == 400 and "no action to undo" in r.json()["error"]


def test_illegal_action_is_422_with_rule_and_changes_nothing_2_3(client: TestClient) -> None:
    client.post("/api/apply-move", json={"unit": "fr-hussars", "to": HUSSARS_10})
    before, log = text_of(client), client.get("/api/log").text
    again = [[x, y + 2, f] for x, y, f in HUSSARS_10]
    r = client.post("/api/apply-move", json={"unit": "fr-hussars", "to": again})
    assert r.status_code == 422 and r.json()["rule"] == "2.3"
    far = [[15.0 + 2 * i, 100.0, 90.0] for i in range(4)]
    r = client.post("/api/apply-move", json={"unit": "fr-volt", "to": far})
    assert r.status_code == 422 and r.json()["rule"]
    assert (text_of(client), client.get("/api/log").text) == (before, log)


@pytest.mark.parametrize(
    ("route", "body", "message"),
    [
        ("apply-fire", {"shooter": "fr-battery", "target": "au-battery"}, "give the volley's dice"),
        ("apply-fire", {**VOLLEY, "dice": [1, 6]}, "dice: gives 2 dice; the volley rolls 3"),
        ("apply-fire", {**VOLLEY, "dice": [1, 9, 6]}, "not a face of a d6"),
        ("apply-fire", {**VOLLEY, "dice": ["x"]}, "dice"),
        ("apply-fire", {**VOLLEY, "seed": -1}, "seed"),
        (
            "apply-melee",
            {"attacker": "fr-cuirassiers", "defender": "au-chevaulegers", "dice": [1]},
            "rolls more",
        ),
        ("apply-morale", {"side": "C", "seed": 1}, "side"),
        ("apply-move", {"unit": "nobody", "to": HUSSARS_10}, "nobody"),
        (
            "place",
            {"army": "france", "profile": "nope", "side": "A", "kind": "line", "files": 2, "x": 50, "y": 50},
            "nope",
        ),
        (
            "place",
            {
                "army": "../x",
                "profile": "line_infantry",
                "side": "A",
                "kind": "line",
                "files": 2,
                "x": 50,
                "y": 50,
            },
            "army",
        ),
        (
            "place",
            {
                "army": "france",
                "profile": "line_infantry",
                "side": "A",
                "kind": "line",
                "files": 2,
                "x": 50,
                "y": 50,
                "id": "fr-volt",
            },
            "exists already",
        ),
        (
            "place",
            {
                "army": "france",
                "profile": "line_infantry",
                "side": "A",
                "kind": "square",
                "files": 3,
                "ranks": 2,
                "x": 50,
                "y": 50,
            },
            "ranks",
        ),
        (
            "terrain-add",
            {"kind": "forest", "polygon": [[0, 0], [10, 10], [10, 0], [0, 10]]},
            "not a simple polygon",
        ),
        ("terrain-add", {"kind": "high_wall", "line": [[0, 0], [10, 10]]}, "width"),
        ("terrain-add", {"kind": "forest", "level": 2, "polygon": [[0, 0], [10, 0], [10, 10]]}, "level"),
        ("terrain-add", {"kind": "lava", "polygon": [[0, 0], [10, 0], [10, 10]]}, "kind"),
        ("terrain-edit", {"id": "nope", "polygon": [[0, 0], [10, 0], [10, 10]]}, "no terrain feature 'nope'"),
        ("terrain-edit", {"id": "wood", "line": [[0, 0], [10, 0]]}, "no line"),
        ("terrain-delete", {"id": "nope"}, "no terrain feature"),
        ("undo", {"x": 1}, "unknown field"),
    ],
)
def test_bad_input_is_one_message_4xx_and_changes_nothing(
    client: TestClient, folder: Path, route: str, body: dict[str, Any], message: str
) -> None:
    before = text_of(client)
    r = client.post(f"/api/{route}", json=body)
    assert r.status_code == 400, r.text
    assert message in r.json()["error"]
    assert text_of(client) == before
    assert sorted(p.name for p in folder.iterdir()) == ["example.toml"]
    assert client.get("/api/state").status_code == 200  # still serving


def test_nan_pose_in_an_action_is_400(client: TestClient) -> None:
    body = b'{"unit": "fr-hussars", "to": [[NaN, 1, 2], [1, 1, 2], [3, 1, 2], [5, 1, 2]]}'
    r = client.post("/api/apply-move", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "NaN" in r.json()["error"]


def test_place_expands_the_formation_and_terrain_edits_keep_comments(client: TestClient) -> None:
    """Issue 17's formations: the placed unit's bases are the formation's, written one a line;
    the terrain added, changed and deleted in the file, its comments kept."""
    body = {
        "army": "france",
        "profile": "foot_artillery",
        "side": "A",
        "kind": "battery",
        "files": 2,
        "x": 120,
        "y": 20,
        "limber": "limber",
    }
    r = client.post("/api/place", json=body)
    assert r.status_code == 200, r.text
    assert (r.json()["placed"], r.json()["bases"]) == ("foot-artillery-1", 4)
    text = text_of(client)
    assert 'profile = "france:limber"' in text and "# The bundled example" in text
    r = client.post(
        "/api/terrain-add", json={"kind": "hill", "level": 2, "polygon": [[130, 10], [150, 10], [140, 30]]}
    )
    assert r.json()["terrain"] == "hill-3"
    r = client.post(
        "/api/terrain-edit", json={"id": "hill-3", "polygon": [[130, 10], [150, 10], [140, 35.5]]}
    )
    assert r.status_code == 200
    assert "polygon = [[130, 10], [150, 10], [140, 35.5]]" in text_of(client)
    assert client.post("/api/terrain-delete", json={"id": "hill-3"}).status_code == 200
    assert client.post("/api/terrain-delete", json={"id": "marsh"}).status_code == 200
    assert "marsh" not in [t["id"] for t in client.get("/api/state").json()["terrain"]]
    assert "# The bundled example" in text_of(client)


def test_setup_edits_only_before_the_first_action(client: TestClient) -> None:
    """Project decision: the log replays the actions' changes only, so the set-up is changed
    before the first action (the log then starts from the edited position)."""
    client.post("/api/terrain-delete", json={"id": "marsh"})
    log = parse_log(client.get("/api/log").text, source="page")
    assert len(log) == 1 and "marsh" not in log[0]["scenario"]["text"]
    client.post("/api/next-phase", json={})
    r = client.post("/api/terrain-delete", json={"id": "wood"})
    assert r.status_code == 409 and "undo the actions first" in r.json()["error"]
    moved = {"fr-hussars": HUSSARS_10}
    r = client.post("/api/apply-fire", json={**VOLLEY, "positions": moved, "morale_dice": [1]})
    assert r.status_code == 409 and "fr-hussars" in r.json()["error"]
    assert client.get("/api/state").json()["turn"] == {
        "round": 1,
        "side": "A",
        "phase": "morale",
        "first": "A",
        "morale_played": False,
        "phase_ended": False,
    }


def test_army_lists_offered(client: TestClient) -> None:
    armies = {a["id"]: a for a in client.get("/api/armylists").json()["armies"]}
    assert {"france", "austria"} <= set(armies)
    line = {"id": "line_infantry", "name": "Line infantry", "kind": "infantry", "width": 2.0, "depth": 2.0}
    assert line in armies["france"]["profiles"]  # 1.2: infantry 2 x 2 cm


def test_save_log_in_the_folder_only_and_replay_gives_the_saved_scenario(
    client: TestClient, folder: Path
) -> None:
    client.post("/api/apply-move", json={"unit": "fr-hussars", "to": HUSSARS_10})
    for name in ("../g.jsonl", "sub/g.jsonl", ".g.jsonl", "g.toml", "g.json"):
        assert client.post("/api/save-log", json={"name": name}).status_code == 400, name
    r = client.post("/api/save-log", json={"name": "game.jsonl"})
    assert r.json() == {"saved": "game.jsonl", "actions": 1, "overwritten": False}
    assert client.post("/api/save-log", json={"name": "game.jsonl"}).status_code == 409
    assert client.post("/api/save", json={"name": "after.toml"}).status_code == 200
    out = run("replay", str(folder / "game.jsonl"), "-o", str(folder / "replayed.toml"))
    assert out.returncode == 0, out.stderr
    assert (folder / "replayed.toml").read_text() == (folder / "after.toml").read_text()
