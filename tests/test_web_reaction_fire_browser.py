"""``szwadron serve``: fire in the opponent's turn in a real browser (4.12.3, 4.12.4, 4.12.6).

Debian's chromium driven by Playwright, as in ``test_web_declared_fire_browser.py``, on the
known-answer tables of ``tests/cases/reaction_apply``:

- 4.12.6: a stands through side A's movement phase (the selection says it may fire at the first
  unit charging it); in side B's movement phase b charges it into contact (Move mode, applied);
  a's fire panel is the fire at a charger, refused in contact (4.1.1) until b is placed at a point
  of its charge: the panel's button puts the page in Move mode with b to drag, and the fire is
  applied with typed dice there — b panics and stops where it was fired at.
- 4.12.3: a declared; b dragged to the point of its move where a interrupts it, fired at with
  typed dice: repulsed, it stops there.
- 4.12.4 in Polish: the declared fire at b out of range is spent with the panel's "lost" button.

Screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from browser import click_base, drag, pages, require_chromium, served, settle

require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")


CASES = Path(__file__).parent / "cases" / "reaction_apply"


@pytest.fixture()
def servers(tmp_path: Path) -> Iterator[Any]:
    """Start a server on a case of ``tests/cases/reaction_apply``; stopped after the test."""
    with ExitStack() as stack:
        yield lambda case: stack.enter_context(
            served(tmp_path / "table", (CASES / case).read_text(encoding="utf-8"))
        )


@pytest.fixture()
def open_page(browser: Any) -> Iterator[Any]:
    """Zoomed onto ``centre`` (cm on the table)."""
    with pages(browser) as opened:
        yield lambda url, centre, lang="en": opened.open(url, lang, centre=centre, k=14)


def unit(pg: Any, uid: str) -> Any:
    return pg.evaluate(f"window.szwadron.S.doc.units.find((u) => u.id === {json.dumps(uid)})")


def ys(pg: Any, uid: str) -> list[float]:
    return [b["y"] for b in unit(pg, uid)["bases"]]


def next_phase(pg: Any) -> None:
    n = len(pg.query_selector_all("#log-list li[data-action]"))
    pg.click("#next-phase")
    pg.wait_for_function(f"document.querySelectorAll('#log-list li[data-action]').length > {n}")
    settle(pg)


def log_actions(pg: Any) -> list[str]:
    return [li.get_attribute("data-action") for li in pg.query_selector_all("#log-list li")]


def test_fire_at_the_charger_placed_at_a_point_of_its_charge_4_12_6(
    servers: Any, open_page: Any, tmp_path: Path
) -> None:
    page = open_page(servers("4_12_6_charger.toml").url, (16.0, 16.0))
    next_phase(page)  # side A's movement phase ends: a stood (4.12.6)
    assert "4.12.6" in page.inner_text("#game-msg")
    click_base(page, "a/0")
    state = page.wait_for_selector('#unit-state[data-stood="true"]')
    assert "may fire at the first unit charging it (4.12.6)" in state.inner_text()
    page.screenshot(path=str(tmp_path / "stood.png"))
    next_phase(page)  # B's movement phase
    page.keyboard.press("Escape")

    # b charges a into contact (Move mode, applied)
    page.click('#modes button[data-mode="move"]')
    drag(page, (10.0, 22.0), (10.0, 12.0))
    page.select_option("#move-charge", "a")
    settle(page)
    page.click("#move-apply")
    page.wait_for_selector("#move-msg #action-answer")
    settle(page)
    assert ys(page, "b") == [12.0, 12.0] and log_actions(page)[-1] == "move"

    # a's fire at the charger: in contact it is engaged (4.1.1) until b is placed before contact
    page.click('#modes button[data-mode="select"]')
    click_base(page, "a/0")
    click_base(page, "b/0")
    page.wait_for_selector("#fire-charged")
    assert page.get_attribute("#fire-verdict", "data-legal") == "false"
    assert page.get_attribute("#fire-reason", "data-rule") == "4.1.1"
    page.click("#fire-place")
    settle(page)
    assert page.evaluate("window.szwadron.S.mode") == "move"
    assert page.get_attribute("#move-hint", "data-fire-at") == "a" and page.is_hidden("#move-apply")
    drag(page, (10.0, 12.0), (10.0, 16.0))  # the point of its charge 4 cm from a
    page.wait_for_selector('#fire-verdict[data-legal="true"]')
    at = page.inner_text("#fire-target-at")
    assert "b/0 (10.00, 16.00, 270°)" in at and "b/1 (12.00, 16.00, 270°)" in at, at
    assert page.evaluate("window.szwadron.S.selected") == "a"
    assert ys(page, "b") == [12.0, 12.0]  # the position is unchanged until the fire is applied
    page.screenshot(path=str(tmp_path / "charger-placed.png"))

    page.fill("#fire-dice", "1,2")
    page.fill("#fire-morale-dice", "6,6")
    page.click("#fire-apply")
    answer = page.wait_for_selector("#fire-msg #action-answer")
    assert "a → b (fire at a charger (4.12.6))" in answer.inner_text(), answer.inner_text()
    settle(page)
    assert page.evaluate("window.szwadron.S.mode") == "select"
    b = unit(page, "b")
    assert b["state"] == "panic" and ys(page, "b") == [16.0]
    assert unit(page, "a")["stood"] is False
    assert log_actions(page) == ["turn", "turn", "move", "fire"]
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "charger-fired.png"))
    click_base(page, "a/0")
    assert page.get_attribute("#unit-state", "data-stood") == "false"


def test_declared_fire_interrupts_the_move_4_12_3(servers: Any, open_page: Any, tmp_path: Path) -> None:
    page = open_page(servers("4_12_3_interrupt.toml").url, (16.0, 25.0))
    click_base(page, "a/0")
    page.click("#declare-btn")
    page.wait_for_selector("#declare-msg #action-answer")
    settle(page)
    next_phase(page)
    next_phase(page)  # B's movement phase
    page.keyboard.press("Escape")
    click_base(page, "a/0")
    click_base(page, "b/0")
    page.wait_for_selector('#fire-declared[data-rule="4.12.5"]')
    page.click("#fire-place")
    settle(page)
    drag(page, (10.0, 40.0), (10.0, 30.0))  # where a interrupts b's move
    page.wait_for_selector('#fire-declared[data-rule="4.12.3"]')
    assert page.get_attribute("#fire-verdict", "data-legal") == "true"
    assert "interrupting the target's move" in page.inner_text("#fire-declared")
    page.screenshot(path=str(tmp_path / "interrupt-placed.png"))
    page.fill("#fire-dice", "1,2")
    page.fill("#fire-morale-dice", "6,1")
    page.click("#fire-apply")
    answer = page.wait_for_selector("#fire-msg #action-answer")
    assert "a → b (declared fire (4.12.2))" in answer.inner_text() and "repulsed" in answer.inner_text()
    settle(page)
    assert ys(page, "b") == [30.0] and unit(page, "b")["acted"] == "move"
    assert unit(page, "a")["declared"] is False
    page.screenshot(path=str(tmp_path / "interrupt-fired.png"))


def test_polish_declared_fire_out_of_range_is_spent_4_12_4(
    servers: Any, open_page: Any, tmp_path: Path
) -> None:
    page = open_page(servers("4_12_3_interrupt.toml").url, (16.0, 25.0), "pl")
    click_base(page, "a/0")
    page.click("#declare-btn")
    page.wait_for_selector("#declare-msg #action-answer")
    settle(page)
    next_phase(page)
    next_phase(page)
    page.keyboard.press("Escape")
    click_base(page, "a/0")
    assert "zadeklarowany ostrzał (4.12.2)" in page.inner_text("#unit-state")
    click_base(page, "b/0")
    page.wait_for_selector("#fire-lost-row:not([hidden])")
    assert page.get_attribute("#fire-reason", "data-rule") == "4.5.1"
    assert page.is_hidden("#fire-dice-box")
    assert page.inner_text("#fire-lost") == "Strzelaj (stracony: poza zasięgiem, 4.12.4)"
    assert page.inner_text("#fire-place") == "Ustaw cel tam, gdzie jest ostrzeliwany (4.12.3)"
    page.screenshot(path=str(tmp_path / "lost-offered-pl.png"))
    # placed where it interrupts the move, still out of range (26 cm): lost (4.12.4)
    page.click("#fire-place")
    settle(page)
    assert "to nie ruch" in page.inner_text("#move-hint")
    drag(page, (10.0, 40.0), (10.0, 38.0))
    page.wait_for_selector('#fire-reason[data-rule="4.12.4"]')
    assert page.inner_text("#fire-stands") == "Cofnij: strzelaj tam, gdzie stoi"
    page.screenshot(path=str(tmp_path / "lost-placed-pl.png"))
    page.click("#fire-lost")
    answer = page.wait_for_selector("#fire-msg #action-answer")
    text = answer.inner_text()
    assert "a → b (zadeklarowany ostrzał (4.12.2))" in text and "stracony" in text and "4.12.4" in text, text
    settle(page)
    assert unit(page, "a")["declared"] is False and ys(page, "b") == [40.0, 40.0]
    assert log_actions(page)[-1] == "fire"
    assert "stracony" in (page.text_content("#log-list li:last-child") or "")
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "lost-spent-pl.png"))
