"""``szwadron serve``: the game and the set-up in a real browser (issue 18 after issue 17).

Debian's chromium driven by Playwright, as in ``test_web_browser.py``: a move and a volley with
fixed dice applied on the page (sections 3 and 4), the game log downloaded and replayed by
``szwadron replay`` into the very scenario the page downloads; undo goes back a position; an
illegal action shows its rule and changes nothing (2.3); the morale phase (6.8) and a melee
(5.3-5.6) applied with a seed; a unit placed from an army list in a formation (issue 17) with
its problems shown live (``check``); terrain drawn, a corner dragged, a bad polygon refused with
the model's message, a feature deleted. Screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import answered, download, drag, require_chromium, screen, settle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "example.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from szwadron.web import Running, start  # noqa: E402


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "table"
    path.mkdir()
    shutil.copy(EXAMPLE, path / "example.toml")
    return path


@pytest.fixture()
def server(folder: Path) -> Iterator[Running]:
    running = start(folder / "example.toml")
    yield running
    running.stop()


@pytest.fixture()
def page(browser: Any, server: Running) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server.url)
    settle(pg)
    yield pg
    context.close()
    assert not errors, errors


def click_at(pg: Any, x: float, y: float) -> None:
    pg.mouse.click(*screen(pg, x, y))
    pg.wait_for_timeout(30)


def click_base(pg: Any, base: str) -> None:
    uid, index = base.split("/")
    x, y = pg.evaluate(f"window.szwadron.S.pos[{json.dumps(uid)}][{index}]")[:2]
    click_at(pg, x, y)
    settle(pg)


def szwadron(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "szwadron", *args], capture_output=True, text=True, check=False
    )


def test_apply_move_and_volley_then_replay_of_the_log_gives_the_scenario_3_4(
    page: Any, folder: Path, tmp_path: Path
) -> None:
    """Section 3, 4, 4.8.1: a move and a volley with fixed dice applied on the page; ``szwadron
    replay`` of the downloaded game log reproduces the downloaded scenario byte for byte; undo
    restores the position before the volley. The turn counter (2) is moved on to side A's
    movement phase first."""
    page.click("#next-phase")
    page.wait_for_selector("#turn-now[data-phase='morale']")
    page.click("#next-phase")
    page.wait_for_selector("#turn-now[data-phase='movement']")
    assert "round 1" in page.inner_text("#turn-counter")
    page.click('#modes button[data-mode="move"]')
    drag(page, (15.0, 30.0), (15.0, 40.0))  # fr-hussars 10 cm forward (R 28)
    assert page.get_attribute("#move-verdict", "data-legal") == "true"
    assert page.inner_text("#move-apply") == "Apply move"
    page.click("#move-apply")
    assert "move" in answered(page, "#move-msg").inner_text()
    settle(page)
    assert page.evaluate("window.szwadron.S.orig['fr-hussars']") == [[15 + 2 * i, 40, 90] for i in range(4)]
    assert page.evaluate("window.szwadron.S.doc.log.length") == 3

    page.click('#modes button[data-mode="select"]')
    click_base(page, "fr-battery/0")
    click_base(page, "au-battery/0")
    page.wait_for_selector("#fire-apply")
    page.click("#fire-apply")  # no dice typed: the page says what it wants
    assert "dice you rolled" in page.wait_for_selector("#fire-msg #action-error").inner_text()
    before = page.evaluate("window.szwadron.S.doc")
    page.fill("#fire-dice", "1,6,6")  # 1 damage of 4 W: remainder roll (1.5.1), then 4.8.1
    page.fill("#fire-rem-dice", "4")
    page.fill("#fire-morale-dice", "6,6")  # repulse test failed, panic test failed (6.3)
    page.click("#fire-apply")
    answer = answered(page, "#fire-msg")
    assert "panic" in answer.inner_text(), answer.inner_text()
    settle(page)
    battery = page.evaluate("window.szwadron.S.doc.units.find((u) => u.id === 'au-battery')")
    assert battery["state"] == "panic"
    assert "panic" in page.text_content('[data-unit-label="au-battery"]')
    assert [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")] == [
        "turn",
        "turn",
        "move",
        "fire",
    ]
    page.click("#log-box summary")
    page.screenshot(path=str(tmp_path / "applied.png"))  # docs/img/serve-game.png

    log = tmp_path / "game.jsonl"
    log.write_text(download(page, "#download-log"), encoding="utf-8")
    scenario = download(page, "#download")
    replayed = tmp_path / "replayed.toml"
    out = szwadron("replay", str(log), "-o", str(replayed))
    assert out.returncode == 0, out.stderr
    assert replayed.read_text(encoding="utf-8") == scenario
    assert "# The bundled example" in scenario  # comments kept
    assert 'state = "panic"' in scenario
    page.fill("#save-name", "game-1.toml")
    page.click("#save-log")
    assert "game-1.jsonl" in page.wait_for_selector("#save-answer.ok").inner_text()
    assert (folder / "game-1.jsonl").read_text(encoding="utf-8") == log.read_text(encoding="utf-8")

    page.click("#undo")
    page.wait_for_selector("#game-msg #action-answer")
    settle(page)
    assert page.evaluate("window.szwadron.S.doc.units") == before["units"]
    assert page.evaluate("window.szwadron.S.doc.log.length") == 3


def test_illegal_action_shows_its_rule_and_changes_nothing_2_3(page: Any, tmp_path: Path) -> None:
    """2.3: one action a phase — a unit that moved cannot move again; the page shows the rule and
    the scenario is unchanged."""
    page.click('#modes button[data-mode="move"]')
    drag(page, (15.0, 30.0), (15.0, 35.0))
    page.click("#move-apply")
    answered(page, "#move-msg")
    settle(page)
    scenario = download(page, "#download")
    drag(page, (15.0, 35.0), (15.0, 38.0))
    page.click("#move-apply")
    refused = page.wait_for_selector("#move-msg #action-error")
    assert refused.get_attribute("data-rule") == "2.3"
    assert "[2.3]" in refused.inner_text()
    page.screenshot(path=str(tmp_path / "refused.png"))
    page.click("#move-back")
    settle(page)
    assert download(page, "#download") == scenario
    assert page.evaluate("window.szwadron.S.doc.log.length") == 1
    # a move not applied is put back when another unit is moved
    drag(page, (15.0, 35.0), (15.0, 37.0))
    x, y, _ = page.evaluate("window.szwadron.S.pos['fr-volt'][0]")
    drag(page, (x, y), (x, y + 3))
    assert page.evaluate("window.szwadron.S.pos['fr-hussars'][0]") == [15, 35, 90]


def test_next_phase_morale_phase_and_melee_with_a_seed_2_6_8_5(page: Any, tmp_path: Path) -> None:
    """2: the turn counter; 6.8: side B's morale phase rolled from a seed; 5.3-5.6: a melee
    rolled from a seed. The replayed log gives the downloaded scenario."""
    assert "set-up" in page.inner_text("#turn-counter")
    page.click("#next-phase")
    page.wait_for_selector("#turn-now[data-phase='morale']")
    assert page.get_attribute("#turn-now", "data-side") == "A"
    click_base(page, "fr-cuirassiers/0")
    click_base(page, "au-chevaulegers/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    page.click("#melee-roll")  # side A's morale phase: no melee yet (2.2)
    refused = page.wait_for_selector("#melee-msg #action-error")
    assert refused.get_attribute("data-rule") == "2.2"
    page.click("#next-phase")
    page.wait_for_selector("#turn-now[data-phase='movement']")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    page.fill("#melee-seed", "7")
    page.click("#melee-roll")
    assert "melee" in answered(page, "#melee-msg").inner_text()
    settle(page)
    page.click("#next-phase")
    page.wait_for_selector("#turn-now[data-side='B'][data-phase='morale']")
    page.click('#phase button[data-side="B"]')
    page.wait_for_selector("#morale-list")
    page.fill("#morale-seed", "3")
    page.click("#morale-roll")
    assert "morale" in answered(page, "#morale-msg").inner_text()
    settle(page)
    actions = [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")]
    assert actions == ["turn", "turn", "melee", "turn", "morale"]
    page.screenshot(path=str(tmp_path / "phases.png"))
    log = tmp_path / "game.jsonl"
    log.write_text(download(page, "#download-log"), encoding="utf-8")
    replayed = tmp_path / "replayed.toml"
    assert szwadron("replay", str(log), "-o", str(replayed)).returncode == 0
    assert replayed.read_text(encoding="utf-8") == download(page, "#download")


def test_a_click_pressed_while_the_panel_is_drawn_again_is_not_lost(page: Any, tmp_path: Path) -> None:
    """The page draws the selection panel again whenever the server's checks come back (after a
    move, a phase, a drag). A click on "melee odds" pressed before that and released after it
    still opens the melee odds (5.3): an unchanged button is kept, not replaced under the pointer
    (a CI run once lost such a click after "next phase")."""
    click_base(page, "fr-cuirassiers/0")
    click_base(page, "au-chevaulegers/0")
    settle(page)
    page.hover("#melee-btn")
    page.mouse.down()
    page.evaluate("renderSelection()")  # the panel drawn again between press and release
    page.mouse.up()
    page.wait_for_selector('[data-chart="melee-defender"]', timeout=5000)
    assert not page.is_hidden("#meleebox")
    page.screenshot(path=str(tmp_path / "kept.png"))


def test_place_a_unit_from_an_army_list_in_a_formation(page: Any, folder: Path, tmp_path: Path) -> None:
    """Issue 17's formations: a French line battalion placed 4 × 2 on the page; its bases are the
    formation's (the same as the file's ``formation`` gives), and an overlap shows live (1.3,
    ``check``)."""
    page.click('#modes button[data-mode="place"]')
    page.wait_for_selector("#place-army option[value='france']", state="attached")
    page.select_option("#place-army", "france")
    page.select_option("#place-profile", "line_infantry")
    page.select_option("#place-kind", "line")
    page.fill("#place-files", "4")
    page.fill("#place-ranks", "2")
    page.select_option("#place-side", "A")
    page.fill("#place-id", "fr-new")
    page.mouse.move(*screen(page, 120.0, 30.0))  # the ghost of the formation under the pointer
    ghosts = [g.get_attribute("points") for g in page.query_selector_all(".place-ghost")]
    assert len(ghosts) == 8
    page.screenshot(path=str(tmp_path / "ghost.png"))
    click_at(page, 120.0, 30.0)
    assert "fr-new" in answered(page, "#place-msg").inner_text()
    settle(page)
    poses = page.evaluate("window.szwadron.S.pos['fr-new']")
    placed = page.query_selector_all('.base[data-unit="fr-new"]:not(.front)')
    assert [b.get_attribute("points") for b in placed] == ghosts  # the ghost was the formation
    assert poses == [[117 + 2 * i, 29 - 2 * r, 90] for r in range(2) for i in range(4)]
    page.fill("#place-id", "fr-overlap")
    page.select_option("#place-kind", "column")
    page.fill("#place-files", "2")
    page.fill("#place-ranks", "3")
    click_at(page, 118.0, 30.0)
    answered(page, "#place-msg")
    settle(page)
    assert "1.2" in page.inner_text("#problems") or "overlap" in page.inner_text("#problems")
    assert page.query_selector_all('.base.overlap[data-unit="fr-overlap"]')
    page.screenshot(path=str(tmp_path / "placed.png"))
    page.fill("#save-name", "placed.toml")
    page.click("#save")
    page.wait_for_selector("#save-answer.ok")
    formation = folder / "formation.toml"
    text = (folder / "placed.toml").read_text(encoding="utf-8")
    formation.write_text(
        text
        + '\n[[units]]\nid = "fr-twin"\nside = "A"\nprofile = "france:line_infantry"\n'
        + 'formation = { kind = "line", files = 4, ranks = 2, x = 120.0, y = 30.0, facing = 90.0 }\n',
        encoding="utf-8",
    )
    from szwadron.loading import load_scenario

    sc = load_scenario(formation)
    assert [(b.x, b.y, b.facing) for b in sc.unit("fr-twin").bases] == [tuple(p) for p in poses]


def test_draw_edit_and_delete_terrain(page: Any, tmp_path: Path) -> None:
    """Terrain drawn on the page: a level-2 hill by its corners, a wall by its line and width; a
    corner dragged; a self-intersecting polygon refused with the model's message; a feature
    deleted. Each change is the scenario's (``check`` and the downloaded file)."""
    page.click('#modes button[data-mode="terrain"]')
    page.select_option("#snap-grid", "1")
    page.select_option("#terrain-kind", "hill")
    page.fill("#terrain-level", "0")  # no hill is of level 0: refused, not silently level 1
    page.fill("#terrain-name", "Windmill rise")
    for x, y in ((100, 8), (125, 8), (125, 22), (100, 22)):
        click_at(page, x, y)
    assert page.evaluate("window.szwadron.S.draft.length") == 4
    page.click("#terrain-finish")
    assert "level 1 to 10" in page.wait_for_selector("#terrain-msg #action-error").inner_text()
    assert page.evaluate("window.szwadron.S.draft.length") == 4  # the corners kept
    page.fill("#terrain-level", "2")
    page.click("#terrain-finish")
    answered(page, "#terrain-msg")
    settle(page)
    hill = page.evaluate("window.szwadron.S.doc.terrain.at(-1)")
    assert (hill["id"], hill["kind"], hill["level"]) == ("hill-3", "hill", 2)
    assert hill["polygon"] == [[100, 8], [125, 8], [125, 22], [100, 22]]
    assert page.text_content('[data-terrain-label="hill-3"]') == "Windmill rise"
    page.fill("#terrain-name", "")

    page.select_option("#terrain-kind", "high_wall")
    page.fill("#terrain-width", "1.5")
    click_at(page, 135, 108)
    click_at(page, 170, 108)
    page.click("#terrain-finish")
    answered(page, "#terrain-msg")
    settle(page)
    wall = page.evaluate("window.szwadron.S.doc.terrain.at(-1)")
    assert (wall["kind"], wall["line"], wall["width"]) == ("high_wall", [[135, 108], [170, 108]], 1.5)

    click_at(page, 112, 15)  # select the hill
    page.wait_for_selector('.handle[data-corner="2"]')
    drag(page, (125, 22), (130, 26))
    page.wait_for_function(
        "window.szwadron.S.doc.terrain.find((t) => t.id === 'hill-3').polygon[2][0] === 130"
    )
    page.screenshot(path=str(tmp_path / "terrain.png"))
    scenario = download(page, "#download")
    assert "polygon = [[100, 8], [125, 8], [130, 26], [100, 22]]" in scenario

    page.click("#terrain-cancel")
    page.select_option("#terrain-kind", "forest")
    for x, y in ((10, 5), (30, 15), (30, 5), (10, 15)):  # a bow tie
        click_at(page, x, y)
    page.click("#terrain-finish")
    refused = page.wait_for_selector("#terrain-msg #action-error")
    assert "not a simple polygon" in refused.inner_text()
    page.screenshot(path=str(tmp_path / "bowtie.png"))
    assert download(page, "#download") == scenario

    page.click("#terrain-cancel")
    click_at(page, 150, 108)  # the wall
    page.click("#terrain-delete")
    answered(page, "#terrain-msg")
    settle(page)
    assert [t["id"] for t in page.evaluate("window.szwadron.S.doc.terrain")][-1] == "hill-3"
