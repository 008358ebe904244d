"""``szwadron serve`` in a real browser: a melee where only part of the defender holds the hill
(5.7.2) shows each dice group's fight — "fight 1" on the ground, "fight 2" on the hill — in
English and Polish. Debian's chromium driven by Playwright, as in
``test_web_combined_melee_browser.py``; the screenshots are kept in the test's tmp folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import require_chromium, screen, settle

CASE = Path(__file__).parent / "cases" / "melee_fights" / "5_7_2_part_uphill_fights_apart.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from szwadron.web import Running, start  # noqa: E402


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[Running]:
    text = CASE.read_text(encoding="utf-8")
    folder = tmp_path / "table"
    folder.mkdir()
    (folder / "table.toml").write_text(text[: text.index("[check]")], encoding="utf-8")
    running = start(folder / "table.toml")
    yield running
    running.stop()


def _page(browser: Any, url: str, lang: str) -> Any:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{url}?lang={lang}")
    settle(pg)
    pg.evaluate(  # zoom onto the melee (x 11, y 12 on the 100 cm table)
        """() => { const r = document.querySelector('#table').getBoundingClientRect();
        const k = 40; Object.assign(window.szwadron.S.view, { k, tx: r.width / 2 - 11 * k, ty: r.height / 2 + 12 * k });
        document.querySelector('#world').setAttribute('transform',
          `translate(${window.szwadron.S.view.tx} ${window.szwadron.S.view.ty}) scale(${k} ${-k})`); }"""
    )
    pg.errors = errors
    return pg


def _click(pg: Any, base: str) -> None:
    uid, index = base.split("/")
    x, y = pg.evaluate(f"window.szwadron.S.pos[{json.dumps(uid)}][{index}]")[:2]
    pg.mouse.click(*screen(pg, x, y))
    pg.wait_for_timeout(30)
    settle(pg)


@pytest.mark.parametrize(("lang", "fight"), [("en", "fight"), ("pl", "walka")])
def test_5_7_2_the_melee_panel_names_the_fights(
    serve: Running, browser: Any, tmp_path: Path, lang: str, fight: str
) -> None:
    pg = _page(browser, serve.url, lang)
    _click(pg, "a/0")
    _click(pg, "d/0")
    pg.click("#melee-btn")
    pg.wait_for_selector('[data-chart="melee-defender"]')
    text = pg.inner_text("#melee-answer")
    assert f"UW 4, W+1, {fight} 2" in text and f"UW 4, {fight} 1" in text, text
    assert f"UW 3, {fight} 2" in text and f"UW 3, {fight} 1" in text, text
    pg.locator("#meleebox").screenshot(path=str(tmp_path / f"melee-fights-{lang}.png"))
    assert not pg.errors, pg.errors
