"""``szwadron serve`` in a real browser: a melee where only part of the defender holds the hill
(5.7.2) shows each dice group's fight — "fight 1" on the ground, "fight 2" on the hill — in
English and Polish. Debian's chromium driven by Playwright, as in
``test_web_combined_melee_browser.py``; the screenshots are kept in the test's tmp folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import case_position, click_base, pages, require_chromium, served

CASE = Path(__file__).parent / "cases" / "melee_fights" / "5_7_2_part_uphill_fights_apart.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from szwadron.web import Running  # noqa: E402


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[Running]:
    with served(tmp_path / "table", case_position(CASE)) as running:
        yield running


@pytest.mark.parametrize(("lang", "fight"), [("en", "fight"), ("pl", "walka")])
def test_5_7_2_the_melee_panel_names_the_fights(
    serve: Running, browser: Any, tmp_path: Path, lang: str, fight: str
) -> None:
    with pages(browser, height=1000) as opened:
        pg = opened.open(serve.url, lang, centre=(11.0, 12.0), k=40)  # zoomed onto the melee
        click_base(pg, "a/0")
        click_base(pg, "d/0")
        pg.click("#melee-btn")
        pg.wait_for_selector('[data-chart="melee-defender"]')
        text = pg.inner_text("#melee-answer")
        assert f"UW 4, W+1, {fight} 2" in text and f"UW 4, {fight} 1" in text, text
        assert f"UW 3, {fight} 2" in text and f"UW 3, {fight} 1" in text, text
        pg.locator("#meleebox").screenshot(path=str(tmp_path / f"melee-fights-{lang}.png"))
