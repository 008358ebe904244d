"""``szwadron serve``: declared fire (4.12.2-4.12.5) in a real browser.

Debian's chromium driven by Playwright, as in ``test_web_melee_moves_browser.py``, on the table of
``tests/test_web_declared_fire.py`` (side A's line a 15 cm from side B's e, A's movement phase):
a is selected and declares its fire with the page's button (its action: the button goes, the
selection says "declared fire (4.12.2)"); a second unit's declaration in the wrong phase is not
offered; the phases go on to side B's movement phase, where a's fire panel is the declared fire
and is applied with typed dice; the declaration is gone afterwards and the game log holds both
lines. Then in Polish. Screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import click_base, pages, require_chromium, served, settle

require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from test_web_declared_fire import table_text  # noqa: E402

from szwadron.web import Running  # noqa: E402


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Running]:
    with served(tmp_path / "table", table_text()) as running:
        yield running


@pytest.fixture()
def open_page(browser: Any) -> Iterator[Any]:
    """Zoomed onto the lines (x 50, y 37)."""
    with pages(browser) as opened:
        yield lambda url, lang="en": opened.open(url, lang, centre=(50.0, 37.0), k=12)


def unit(pg: Any, uid: str) -> Any:
    return pg.evaluate(f"window.szwadron.S.doc.units.find((u) => u.id === {json.dumps(uid)})")


def next_phase(pg: Any) -> None:
    n = len(pg.query_selector_all("#log-list li"))
    pg.click("#next-phase")
    pg.wait_for_function(f"document.querySelectorAll('#log-list li').length > {n}")
    settle(pg)


def test_declare_then_fire_it_in_the_opponents_phase_4_12(
    server: Running, open_page: Any, tmp_path: Path
) -> None:
    """4.12.2, 4.12.5 — declared with the button; fired with dice 1, 1 and morale die 1 in side
    B's movement phase (one figure of e removed); the declaration spent."""
    page = open_page(server.url)
    click_base(page, "a/0")
    assert page.is_visible("#declare-btn") and page.inner_text("#declare-btn") == "Declare fire (4.12.2)"
    page.screenshot(path=str(tmp_path / "declare-offered.png"))
    page.click("#declare-btn")
    answer = page.wait_for_selector("#declare-msg #action-answer")
    assert "declared fire (4.12.2)" in answer.inner_text() and "4.12.2" in answer.inner_text()
    settle(page)
    state = page.wait_for_selector('#unit-state[data-declared="true"]')
    assert state.get_attribute("data-acted") == "declare"
    assert "declared fire (4.12.2)" in state.inner_text()
    assert page.is_hidden("#declare-row")  # its action is taken (2.3)
    assert [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")] == ["declare"]
    page.screenshot(path=str(tmp_path / "declared.png"))

    next_phase(page)  # A's morale phase
    next_phase(page)  # B's movement phase
    assert page.evaluate("window.szwadron.S.doc.turn.side") == "B"
    page.keyboard.press("Escape")
    click_base(page, "e/0")  # B's unit: may act, declared nothing
    assert page.is_visible("#declare-row")
    page.keyboard.press("Escape")
    click_base(page, "a/0")  # a: not its turn, its declaration shown
    assert page.is_hidden("#declare-row") and page.is_hidden("#declare-msg #action-answer")
    assert "declared fire (4.12.2)" in page.inner_text("#unit-state")
    page.click('#targets li[data-target="e"]')
    settle(page)
    page.wait_for_selector("#fire-declared")
    assert page.get_attribute("#fire-verdict", "data-legal") == "true"
    page.screenshot(path=str(tmp_path / "declared-fire-panel.png"))
    page.fill("#fire-dice", "1,1")
    page.fill("#fire-morale-dice", "1")
    page.click("#fire-apply")
    answer = page.wait_for_selector("#fire-msg #action-answer")
    assert "a → e (declared fire (4.12.2))" in answer.inner_text(), answer.inner_text()
    settle(page)
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "declared-fire-answer.png"))
    a, e = unit(page, "a"), unit(page, "e")
    assert a["declared"] is False and e["lost"] == 1
    assert [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")] == [
        "declare",
        "turn",
        "turn",
        "fire",
    ]
    click_base(page, "a/0")
    assert page.get_attribute("#unit-state", "data-declared") == "false"
    assert "declared fire" not in page.inner_text("#unit-state")
    page.screenshot(path=str(tmp_path / "declared-fire-applied.png"))


def test_polish_declare(server: Running, open_page: Any, tmp_path: Path) -> None:
    """The same button, answer and selection line in Polish; a refusal from the server in Polish."""
    page = open_page(server.url, "pl")
    click_base(page, "a/0")
    assert page.inner_text("#declare-btn") == "Zadeklaruj ostrzał (4.12.2)"
    page.click("#declare-btn")
    answer = page.wait_for_selector("#declare-msg #action-answer")
    assert "deklaracja ostrzału (4.12.2)" in answer.inner_text(), answer.inner_text()
    settle(page)
    assert page.get_attribute("#unit-state", "data-declared") == "true"
    page.click('#targets li[data-target="e"]')  # a normal fire now: refused, it has acted (2.3)
    settle(page)
    page.fill("#fire-dice", "1,1")
    page.fill("#fire-morale-dice", "1")
    page.click("#fire-apply")
    refused = page.wait_for_selector("#fire-msg #action-error")
    assert refused.get_attribute("data-rule") == "2.3" and "odmowa" in refused.inner_text()
    refused.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "declared-pl.png"))
    next_phase(page)
    next_phase(page)  # B's movement phase: a's declaration in the selection and the fire panel
    assert "zadeklarowany ostrzał (4.12.2)" in page.inner_text("#unit-state")
    page.click('#targets li[data-target="e"]')
    settle(page)
    assert "ostrzał zadeklarowany (4.12.2)" in page.wait_for_selector("#fire-declared").inner_text()
    page.screenshot(path=str(tmp_path / "declared-fire-panel-pl.png"))
