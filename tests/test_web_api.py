"""``szwadron serve``'s JSON API (issue 18): the answers equal the CLI's ``--json`` documents on
the same table, bad input is one message with a 4xx status, and the guards hold (Host, Origin,
token, body size, files only in the scenario's folder, no overwrite without the user's say-so)."""

from __future__ import annotations

import json
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

from szwadron.web.app import MAX_BODY_BYTES, create_app, host_names

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "example.toml"

#: fr-hussars moved 1.5 cm short of au-line-1: into its control zone (1.4).
HUSSARS_FORWARD = {"fr-hussars": [[57.0 + 2 * i, 85.5, 90.0] for i in range(4)]}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLE, tmp_path / "example.toml")
    return tmp_path


@pytest.fixture()
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder / "example.toml"))


def cli_json(*args: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", *args, "--json"], capture_output=True, text=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr
    doc = json.loads(out.stdout)
    # the command line's envelope (issue 20); the page's answers are the rest of the document
    assert doc.pop("schema_version") == 1
    return doc


def test_state_has_table_terrain_geojson_and_bases(client: TestClient) -> None:
    doc = client.get("/api/state").json()
    assert doc["table"] == {"width": 180.0, "depth": 120.0}
    hill = doc["terrain"][0]
    assert json.loads(hill["geometry"])["type"] == "Polygon"
    hussars = next(u for u in doc["units"] if u["id"] == "fr-hussars")
    assert hussars["bases"][0] == {
        "x": 15.0,
        "y": 30.0,
        "facing": 90.0,
        "width": 2.0,
        "depth": 4.0,
        "kind": "cavalry",
    }


def test_check_of_moved_table_equals_cli_check_of_saved_file(client: TestClient, folder: Path) -> None:
    """1.4, PD-3: what the page is told is what ``szwadron check --json`` says of the saved file."""
    answer = client.post("/api/check", json={"positions": HUSSARS_FORWARD}).json()
    saved = client.post("/api/save", json={"positions": HUSSARS_FORWARD, "name": "moved.toml"})
    assert saved.status_code == 200, saved.text
    assert answer == cli_json("check", str(folder / "moved.toml"))
    assert answer != cli_json("check", str(folder / "example.toml"))


@pytest.mark.parametrize(
    ("route", "body", "args"),
    [
        ("measure", {"a": "fr-line-1", "b": "fr-volt/2"}, ["measure", "fr-line-1", "fr-volt/2"]),
        (
            "fire",
            {"shooter": "fr-battery", "target": "au-battery"},
            ["fire", "--shooter", "fr-battery", "--target", "au-battery"],
        ),
        (
            "fire",
            {"shooter": "fr-battery", "target": "au-line-1"},
            ["fire", "--shooter", "fr-battery", "--target", "au-line-1"],
        ),
        (
            "reach",
            {"unit": "fr-hussars", "target": "au-grenzer"},
            ["reach", "--unit", "fr-hussars", "--target", "au-grenzer"],
        ),
        (
            "melee",
            {"attacker": "fr-hussars", "defender": "au-grenzer"},
            ["melee", "--attacker", "fr-hussars", "--defender", "au-grenzer"],
        ),
        ("morale", {"side": "B"}, ["morale", "--side", "B"]),
    ],
)
def test_answers_equal_the_cli(client: TestClient, route: str, body: dict[str, Any], args: list[str]) -> None:
    answer = client.post(f"/api/{route}", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json() == cli_json(args[0], str(EXAMPLE), *args[1:])


def test_targets_equal_the_cli_plus_arcs_4_4_2_4_4_3(client: TestClient) -> None:
    doc = client.post("/api/targets", json={"shooter": "fr-line-1"}).json()
    arcs = doc.pop("arcs")
    assert doc == cli_json("targets", str(EXAMPLE), "--shooter", "fr-line-1")
    first = {e["edge"]: e for e in arcs[0]["edges"]}
    assert first["right"]["touched"] and not first["left"]["touched"]  # 4.4.2: a neighbour on the right
    battery = client.post("/api/targets", json={"shooter": "fr-battery"}).json()["arcs"][0]["edges"]
    assert [e["edge"] for e in battery if e["fires"]] == ["front"]  # 4.4.3


def test_move_equals_cli_move_file(client: TestClient) -> None:
    """Section 3: the page's drag is the move file's poses."""
    to = [[15.0 + 2 * i, 50.0, 90.0] for i in range(4)]
    doc = client.post("/api/move", json={"unit": "fr-hussars", "to": to}).json()
    move = ROOT / "scenarios" / "moves" / "hussars-advance.toml"
    assert doc == cli_json("move", str(EXAMPLE), "--unit", "fr-hussars", "--to", str(move))
    assert doc["legal"]


def test_illegal_move_names_its_rule_3_1(client: TestClient) -> None:
    to = [[15.0 + 2 * i, 100.0, 90.0] for i in range(4)]
    doc = client.post("/api/move", json={"unit": "fr-hussars", "to": to}).json()
    assert not doc["legal"] and doc["rule"]


def test_a_move_off_the_table_is_refused_with_its_rule_3_1_4(client: TestClient) -> None:
    """A unit dragged past the table's edge: the rules refuse the move (3.1.4, 422 with the rule),
    as an applied move is refused; no stale report; in the page's language."""
    to = [[15.0 + 2 * i, 125.0, 90.0] for i in range(4)]
    r = client.post("/api/move", json={"unit": "fr-hussars", "to": to})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "3.1.4" and "off the table" in r.json()["error"]
    pl = client.post("/api/move", json={"unit": "fr-hussars", "to": to}, headers={"accept-language": "pl"})
    assert pl.status_code == 422 and "poza stołem" in pl.json()["error"]
    applied = client.post("/api/apply-move", json={"unit": "fr-hussars", "to": to})
    assert applied.status_code == 422 and applied.json()["rule"] == "3.1.4"


def test_the_pages_own_errors_speak_its_language(client: TestClient) -> None:
    """No English "request:" in front of a refusal of the page's request; the save conflicts
    in Polish for a Polish page."""
    pl = {"accept-language": "pl"}
    still = [[15.0 + 2 * i, 30.0, 90.0] for i in range(4)]
    r = client.post("/api/move", json={"unit": "fr-hussars", "to": still}, headers=pl)
    assert r.status_code == 400 and r.json()["error"].startswith("to: żadna podstawka")
    r = client.post("/api/save", json={"name": "example.toml"}, headers=pl)
    assert r.status_code == 409 and r.json()["error"] == (
        "example.toml to plik wejściowy; podaj inną nazwę albo zaznacz nadpisanie"
    )
    r = client.post(
        "/api/terrain-add", json={"kind": "hill", "level": 0, "polygon": [[1, 1], [9, 1], [9, 9]]}
    )
    assert r.status_code == 400 and r.json()["error"].startswith("level: a hill is of level 1")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{", "malformed JSON"),
        (b'{"positions": {"fr-hussars": [[NaN, 1, 2]]}}', "NaN"),
        (b'{"positions": {"fr-hussars": [[1e400, 1, 2]]}}', "positions.fr-hussars"),
        (b'{"positions": {"nope": [[1, 1, 2]]}}', "no unit 'nope'"),
        (b'{"positions": {"fr-hussars": [[1, 1, 2]]}}', "1 poses for 4 bases"),
        (b'{"positions": {"fr-hussars": [[1, 1]]}}', "positions.fr-hussars"),
        (b'{"positions": [], "extra": 1}', "extra"),
        (b"[]", "(top level)"),
    ],
)
def test_bad_input_is_one_message_and_400(client: TestClient, body: bytes, message: str) -> None:
    r = client.post("/api/check", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert message in r.json()["error"]
    assert client.post("/api/check", json={}).status_code == 200  # still serving


def test_unknown_unit_in_answer_is_400(client: TestClient) -> None:
    r = client.post("/api/fire", json={"shooter": "nobody", "target": "au-battery"})
    assert r.status_code == 400 and "nobody" in r.json()["error"]


def test_guards_origin_host_size_type(client: TestClient) -> None:
    assert client.post("/api/check", json={}, headers={"origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/check", json={}, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert client.post("/api/check", json={}, headers={"origin": "http://testserver"}).status_code == 200
    assert client.get("/api/state", headers={"host": "evil.example"}).status_code == 403
    big = b"[" + b"0," * (MAX_BODY_BYTES // 2) + b"0]"
    r = client.post("/api/check", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.post("/api/check", content=b"{}", headers={"content-type": "text/plain"}).status_code == 415
    assert client.post("/api/nothing", json={}).status_code == 404


def test_host_names_loopback() -> None:
    assert host_names("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000"}


def test_token_is_required_beyond_loopback(folder: Path) -> None:
    c = TestClient(create_app(folder / "example.toml", token="s3cret"))
    assert c.get("/api/state").status_code == 403
    assert c.get("/api/state", headers={"x-szwadron-token": "wrong"}).status_code == 403
    page = c.get("/?token=s3cret")
    assert page.status_code == 200
    assert c.get("/api/state").status_code == 200  # the cookie the page got
    assert c.get("/static/app.js").status_code == 200


def test_files_stay_in_the_folder_and_input_is_not_overwritten(client: TestClient, folder: Path) -> None:
    before = (folder / "example.toml").read_text()
    for name in ("../x.toml", "/etc/x.toml", "sub/x.toml", ".hidden.toml", "notes.bak", "..toml"):
        r = client.post("/api/save", json={"name": name})
        assert r.status_code == 400, name
    r = client.post("/api/save", json={"positions": HUSSARS_FORWARD, "name": "example.toml"})
    assert r.status_code == 409 and "input file" in r.json()["error"]
    assert (folder / "example.toml").read_text() == before
    assert client.post("/api/save", json={"name": "copy.toml"}).status_code == 200
    assert client.post("/api/save", json={"name": "copy.toml"}).status_code == 409
    assert client.post("/api/save", json={"name": "copy.toml", "overwrite": True}).status_code == 200
    r = client.post(
        "/api/save", json={"positions": HUSSARS_FORWARD, "name": "example.toml", "overwrite": True}
    )
    assert r.status_code == 200
    assert "# The bundled example" in (folder / "example.toml").read_text()  # comments kept
    assert sorted(p.name for p in folder.iterdir()) == ["copy.toml", "example.toml"]
    assert client.post("/api/open", json={"name": "../example.toml"}).status_code == 400
    assert client.post("/api/open", json={"name": "none.toml"}).status_code == 400


def test_download_and_reopen_round_trip(client: TestClient) -> None:
    text = client.post("/api/toml", json={"positions": HUSSARS_FORWARD}).text
    assert "{ x = 59.0, y = 85.5, facing = 90.0 }" in text
    client.post("/api/save", json={"positions": HUSSARS_FORWARD, "name": "moved.toml"})
    state = client.post("/api/open", json={"name": "moved.toml"}).json()
    hussars = next(u for u in state["units"] if u["id"] == "fr-hussars")
    assert [[b["x"], b["y"], b["facing"]] for b in hussars["bases"]] == HUSSARS_FORWARD["fr-hussars"]
    assert state["file"] == "moved.toml"


def test_serve_command_bad_input_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from szwadron.cli import main
    from szwadron.web import bind

    assert main(["serve", str(tmp_path / "none.toml")]) == 2
    assert "no such file" in capsys.readouterr().err
    taken = bind("127.0.0.1", 0)
    try:
        assert main(["serve", str(EXAMPLE), "--port", str(taken.getsockname()[1])]) == 2
        assert "cannot listen" in capsys.readouterr().err
    finally:
        taken.close()


def test_started_server_is_loopback_without_token(folder: Path) -> None:
    import urllib.request

    from szwadron.web import is_loopback, start

    running = start(folder / "example.toml")
    try:
        assert running.url.startswith("http://127.0.0.1:") and "token" not in running.url
        with urllib.request.urlopen(running.url + "api/state", timeout=10) as r:
            assert json.loads(r.read())["file"] == "example.toml"
    finally:
        running.stop()
    assert not is_loopback("0.0.0.0") and is_loopback("127.0.0.2")
