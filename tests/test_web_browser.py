"""``szwadron serve`` in a real browser (issue 18): Debian's chromium driven by Playwright.

The page's answers must be the command line's: a unit dragged into an enemy's control zone shows
the intrusions ``szwadron check --json`` finds in the saved file (1.4); the ruler shows
``measure`` (4.5.2); a shooter and target show ``fire``'s odds and, when it cannot fire, the
blocker with its rule (4.10.1); an illegal move shows its rule (section 3); save and reopen
round-trip. Screenshots go to the test's temporary folder.

Without chromium the tests skip, except in CI (``CI=true``), where ``.ci/run`` installs it and
its absence is a failure.
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
from browser import click_base, drag, require_chromium, screen, settle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "scenarios" / "example.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from szwadron.web import Running, start  # noqa: E402


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("serve")
    shutil.copy(EXAMPLE, path / "example.toml")
    return path


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Running]:
    running = start(folder / "example.toml")
    yield running
    running.stop()


@pytest.fixture()
def page(browser: Any, server: Running) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 850}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    reopen = pg.request.post(server.url + "api/open", data={"name": "example.toml"})  # as loaded
    assert reopen.ok, reopen.text()
    pg.goto(server.url)
    settle(pg)
    yield pg
    context.close()
    assert not errors, errors


def cli(*args: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", *args, "--json"], capture_output=True, text=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)


def test_drag_into_control_zone_shows_cli_check_intrusions_1_4(
    page: Any, folder: Path, tmp_path: Path
) -> None:
    page.select_option("#snap-grid", "0.5")
    drag(page, (15.0, 30.0), (57.0, 85.5))  # fr-hussars/0 to 1.5 cm short of au-line-1
    assert page.evaluate("window.szwadron.S.pos['fr-hussars']") == [[57 + 2 * i, 85.5, 90] for i in range(4)]
    shown = [
        (
            li.get_attribute("data-base"),
            li.get_attribute("data-zone-of"),
            float(li.get_attribute("data-distance")),
        )
        for li in page.query_selector_all("#intrusions li[data-base]")
    ]
    assert shown, "the page shows no intrusion"
    assert "[1.4]" in page.inner_text("#intrusions")
    assert "1.4.2" in page.inner_text("#problems")
    page.screenshot(path=str(tmp_path / "zone.png"))
    page.fill("#save-name", "zone.toml")
    page.click("#save")
    page.wait_for_selector("#save-answer.ok")
    answer = cli("check", str(folder / "zone.toml"))
    assert shown == [(z["base"], z["zone_of"], z["distance"]) for z in answer["zone_intrusions"]]
    problems = [li.get_attribute("data-rule") for li in page.query_selector_all("#problems li[data-rule]")]
    assert problems == [p["rule"] for p in answer["problems"]]


def test_ruler_measures_edge_to_edge_4_5_2(page: Any) -> None:
    page.click('#modes button[data-mode="ruler"]')
    click_base(page, "fr-line-1/0")
    click_base(page, "fr-volt/2")
    answer = page.wait_for_selector("#ruler-answer")
    expected = cli("measure", str(EXAMPLE), "fr-line-1", "fr-volt")
    assert float(answer.get_attribute("data-distance")) == expected["distance"]
    assert f"{expected['distance']:.2f} cm" in answer.inner_text()
    assert page.query_selector("#ruler-line") is not None


def test_fire_odds_equal_cli_fire_4_and_blocker_named_4_10_1(page: Any, tmp_path: Path) -> None:
    click_base(page, "fr-battery/0")
    assert page.query_selector('#targets li[data-target="au-battery"]') is not None
    click_base(page, "au-battery/0")
    expected = cli("fire", str(EXAMPLE), "--shooter", "fr-battery", "--target", "au-battery")
    removed = [
        float(r.get_attribute("data-p")) for r in page.query_selector_all('[data-chart="removed"] rect')
    ]
    assert removed == expected["removed_pmf"]
    morale = {
        r.get_attribute("data-key"): float(r.get_attribute("data-p"))
        for r in page.query_selector_all('[data-chart="morale"] rect')
    }
    assert morale == expected["morale"]
    assert page.get_attribute("#fire-verdict", "data-legal") == "true"
    assert page.query_selector_all(".sight:not(.blocked)")
    page.screenshot(path=str(tmp_path / "fire.png"))

    page.click("#cannot-box summary")
    page.click('#cannot li[data-target="au-line-1"]')
    settle(page)
    blocked = cli("fire", str(EXAMPLE), "--shooter", "fr-battery", "--target", "au-line-1")
    assert page.get_attribute("#fire-verdict", "data-legal") == "false"
    assert page.get_attribute("#fire-reason", "data-rule") == blocked["reason"]["rule"] == "4.10.1"
    assert "hill-1" in page.inner_text("#fire-reason")
    assert page.query_selector('.terrain.blocker[data-terrain="hill-1"]') is not None
    assert page.query_selector(".sight.blocked") is not None
    page.screenshot(path=str(tmp_path / "blocked.png"))


def test_illegal_move_shows_its_rule_section_3(page: Any, tmp_path: Path) -> None:
    page.click('#modes button[data-mode="move"]')
    drag(page, (17.0, 30.0), (17.0, 70.0))  # 40 cm: beyond the hussars' 28 cm
    verdict = page.wait_for_selector("#move-verdict")
    poses = page.evaluate("window.szwadron.S.pos['fr-hussars']")
    move = tmp_path / "move.toml"
    move.write_text(
        "".join(
            f"[[bases]]\nindex = {i}\nx = {x}\ny = {y}\nfacing = {f}\n" for i, (x, y, f) in enumerate(poses)
        )
    )
    expected = cli("move", str(EXAMPLE), "--unit", "fr-hussars", "--to", str(move))
    assert not expected["legal"]
    assert verdict.get_attribute("data-legal") == "false"
    assert verdict.get_attribute("data-rule") == expected["rule"]
    assert f"[{expected['rule']}]" in verdict.inner_text()
    assert page.query_selector_all(".ghost")
    page.screenshot(path=str(tmp_path / "move.png"))
    page.click("#move-back")
    settle(page)
    assert page.evaluate("window.szwadron.S.pos['fr-hussars'][0]") == [15, 30, 90]


def test_turn_and_save_and_reopen_round_trip(page: Any, folder: Path) -> None:
    click_base(page, "fr-volt/0")
    page.select_option("#pivot", "front-left")
    page.click('#turn button[data-turn="-1"]')  # 15° clockwise about the front-left corner
    settle(page)
    turned = page.evaluate("window.szwadron.S.pos['fr-volt']")
    assert [p[2] for p in turned] == [75, 75, 75, 75]
    page.fill("#save-name", "example.toml")
    page.click("#save")
    assert "overwrite" in page.wait_for_selector("#save-answer.bad").inner_text()
    page.fill("#save-name", "turned.toml")
    page.click("#save")
    page.wait_for_selector("#save-answer.ok")
    page.click("#open")
    page.wait_for_function("window.szwadron.S.doc.file === 'turned.toml'")
    settle(page)
    assert page.evaluate("window.szwadron.S.pos['fr-volt']") == turned
    assert page.inner_text("#file") == "turned.toml"
    with page.expect_download() as info:
        page.click("#download")
    text = Path(info.value.path()).read_text()
    assert text == (folder / "turned.toml").read_text()


def test_melee_and_morale_phase(page: Any) -> None:
    click_base(page, "fr-cuirassiers/0")
    click_base(page, "au-chevaulegers/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    expected = cli("melee", str(EXAMPLE), "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers")
    shown = [
        float(r.get_attribute("data-p"))
        for r in page.query_selector_all('[data-chart="melee-defender"] rect')
    ]
    assert shown == expected["defender_removed_pmf"]
    page.click('#phase button[data-side="B"]')
    item = page.wait_for_selector('#morale-list li[data-unit="au-cuirassiers"]')
    assert "66.7%" in item.inner_text()  # reorganise 4/6 (6.8.4)


def test_screenshot_for_the_readme(page: Any, tmp_path: Path) -> None:
    """A unit in an enemy's zone, a battery's arcs, sight band and odds: docs/img/serve.png is
    taken from this picture."""
    page.select_option("#snap-grid", "0.5")
    drag(page, (15.0, 30.0), (57.0, 85.5))
    click_base(page, "fr-battery/0")
    click_base(page, "au-battery/0")
    assert page.query_selector_all(".base.zone") and page.query_selector_all(".band")
    page.screenshot(path=str(tmp_path / "serve.png"))


def test_reach_draws_the_path_3_1(page: Any, folder: Path, tmp_path: Path) -> None:
    drag(page, (15.0, 30.0), (50.0, 60.0))  # fr-hussars/0 to 27 cm of au-line-1 (R 28)
    click_base(page, "fr-hussars/0")
    click_base(page, "au-line-1/0")
    page.click("#reach-btn")
    answer = page.wait_for_selector("#reach-answer")
    assert page.query_selector("#reach-path") is not None
    page.fill("#save-name", "reach.toml")
    page.click("#save")
    page.wait_for_selector("#save-answer.ok")
    expected = cli("reach", str(folder / "reach.toml"), "--unit", "fr-hussars", "--target", "au-line-1")
    assert expected["reachable"]
    assert "can reach" in answer.inner_text() and f"{expected['length']:.2f}" in answer.inner_text()
    points = page.get_attribute("#reach-path", "points").split()
    assert [[float(v) for v in p.split(",")] for p in points] == expected["path"]
    page.screenshot(path=str(tmp_path / "reach.png"))


def test_zoom_pan_and_pinch(page: Any) -> None:
    """Wheel zooms about the cursor, a drag on the cloth pans, two pointers pinch."""
    view = page.evaluate("({...window.szwadron.S.view})")
    x, y = screen(page, 170.0, 10.0)  # an empty corner of the cloth
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    page.wait_for_timeout(50)
    zoomed = page.evaluate("({...window.szwadron.S.view})")
    assert zoomed["k"] > view["k"]
    assert screen(page, 170.0, 10.0) == pytest.approx((x, y), abs=0.5)  # the point under the cursor stays
    page.mouse.down()
    page.mouse.move(x - 100, y - 50, steps=5)
    page.mouse.up()
    panned = page.evaluate("({...window.szwadron.S.view})")
    assert (panned["tx"] - zoomed["tx"], panned["ty"] - zoomed["ty"]) == pytest.approx((-100, -50), abs=1)
    pinched = page.evaluate(
        """([x, y]) => {
        const svg = document.querySelector('#table');
        const ev = (type, id, px) => svg.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: px,
            clientY: y, bubbles: true, pointerType: 'touch', isPrimary: id === 1}));
        const k0 = window.szwadron.S.view.k;
        ev('pointerdown', 1, x - 20); ev('pointerdown', 2, x + 20);
        ev('pointermove', 1, x - 40); ev('pointermove', 2, x + 40);
        ev('pointerup', 1, x - 40); ev('pointerup', 2, x + 40);
        return window.szwadron.S.view.k / k0;
    }""",
        [x - 150, y + 150],
    )
    assert pinched == pytest.approx(2.0)


def test_page_in_polish_and_back(page: Any, server: Running, tmp_path: Path) -> None:
    """Issue 18 with issue 19: the page speaks the rulebook's Polish (chosen by ?lang=pl or its
    own language select, kept for the next visit), with Polish plural forms, and English again."""
    page.goto(server.url + ("&" if "?" in server.url else "?") + "lang=pl")
    settle(page)
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert page.inner_text("#modes").split() == ["Wybór", "Ruch", "Miarka", "Rozstaw", "Teren"]
    # 14 units, 77 bases: 5 or more take the genitive plural (oddziałów, podstawek)
    assert page.inner_text("#summary").startswith("14 oddziałów, 77 podstawek: brak problemów")
    assert "Wejścia w strefę kontroli (1.4)" in page.inner_text("#checks")
    page.screenshot(path=str(tmp_path / "serve-pl.png"))
    page.select_option("#lang", "en")
    settle(page)
    assert page.inner_text("#summary").startswith("14 units, 77 bases: no problems")
    page.reload()
    settle(page)
    assert page.evaluate("localStorage.getItem('szwadron-lang')") == "en"
    assert page.inner_text("#modes").split()[0] == "Select"


def test_a_move_past_the_table_edge_shows_the_refusal_3_1_4(page: Any, tmp_path: Path) -> None:
    """A unit dragged past the table's edge in Move mode: the verdict is the refusal with its rule
    (3.1.4), not the last legal verdict; the page keeps working (no page error, checked by the
    fixture): a unit clicked without a drag asks to be dragged, and a turn of it is checked."""
    page.click('#modes button[data-mode="move"]')
    drag(page, (17.0, 30.0), (17.0, 50.0))
    assert page.get_attribute("#move-verdict", "data-legal") == "true"
    drag(page, (17.0, 50.0), (17.0, 125.0))  # past side B's edge (the table is 120 cm deep)
    verdict = page.wait_for_selector("#move-verdict[data-rule='3.1.4']")
    assert verdict.get_attribute("data-legal") == "false"
    assert "[3.1.4]" in verdict.inner_text() and "off the table" in verdict.inner_text()
    assert "LEGAL" not in verdict.inner_text().replace("ILLEGAL", "")
    assert not page.query_selector_all(".path")
    page.screenshot(path=str(tmp_path / "off-table.png"))
    page.click("#move-back")
    settle(page)
    click_base(page, "fr-volt/0")  # a click, no drag: nothing to check yet
    assert "fr-volt" in page.inner_text("#move-hint")
    page.keyboard.press("]")
    settle(page)
    page.wait_for_selector("#move-verdict")
    assert page.inner_text("#move-verdict").startswith("fr-volt:")


def test_the_answers_speak_polish(page: Any, server: Running, tmp_path: Path) -> None:
    """The page in Polish: the melee odds (sides, dice, outcomes), the move's table, the turn
    counter, the reach and the place mode's profiles; switched to English, the melee box follows."""
    page.goto(server.url + ("&" if "?" in server.url else "?") + "lang=pl")
    settle(page)
    assert "rozstawienie" in page.inner_text("#turn-counter")
    click_base(page, "fr-cuirassiers/0")
    click_base(page, "au-chevaulegers/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    melee = page.inner_text("#melee-answer")
    assert "atakujący" in melee and "broniący się" in melee and "K6" in melee, melee
    outcomes = page.inner_text("#melee-outcomes")
    for english in ("held", "engaged", "repulsed", "panic", "pursuit", "destroyed", "attacker", "d6"):
        assert english not in melee + outcomes, (english, melee, outcomes)
    page.screenshot(path=str(tmp_path / "melee-pl.png"))
    page.click("#reach-btn")
    assert " do au-chevaulegers" in page.inner_text("#reach-answer")
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#melee-answer').innerText.includes('attacker')")
    page.select_option("#lang", "pl")
    page.wait_for_function("document.querySelector('#melee-answer').innerText.includes('atakujący')")
    page.click('#modes button[data-mode="move"]')
    drag(page, (17.0, 30.0), (17.0, 70.0))
    assert page.inner_text("#move-body table tr").split() == ["podstawka", "cm", "dozwolone", "teren"]
    page.click('#modes button[data-mode="place"]')
    page.wait_for_selector("#place-army option[value='france']", state="attached")
    page.select_option("#place-army", "france")
    assert "(piechota)" in page.inner_text("#place-profile")
    assert "(infantry)" not in page.inner_text("#place-profile")
    page.click("#next-phase")  # the turn counter and the game log
    page.wait_for_selector("#turn-now[data-phase='morale']")
    assert page.inner_text("#turn-now").endswith("strona A · faza morale")
    assert page.inner_text("#game-msg").startswith("zastosowano (następna faza) runda 1, strona A")
    assert (page.text_content("#log-list") or "").startswith("następna faza")
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#game-msg').innerText.startsWith('applied (turn)')")
    assert page.inner_text("#turn-now").endswith("side A · morale phase")
