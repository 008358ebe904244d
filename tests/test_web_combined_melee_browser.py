"""``szwadron serve``: the combined melee (5.10) in a real browser — a second attacking unit added
to the selected unit's melee with its target (the "+" control, or Shift-click on the table), the
combined odds of every unit, the order the dice are typed in, the melee applied with typed dice
or a seed, and the log saying what happened to every unit.

Debian's chromium driven by Playwright, as in ``test_web_melee_moves_browser.py``, on the
hand-worked case ``tests/cases/melee_combined/5_10_two_attackers_one_defender`` (a and b attack
d; d engaged 1/4, d destroyed 1/3). The page is looked at in English and in Polish; screenshots
go to the test's temporary folder.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import answered, case_position, click_base, download, pages, require_chromium, served, settle

CASE = Path(__file__).parent / "cases" / "melee_combined" / "5_10_two_attackers_one_defender.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")

from szwadron.web import Running  # noqa: E402


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[Running]:
    with served(tmp_path / "table", case_position(CASE)) as running:
        yield running


@pytest.fixture()
def open_page(browser: Any) -> Iterator[Any]:
    """Zoomed onto the melee (x 10, y 11 on the 100 cm table) so the bases are big enough to click."""
    with pages(browser, height=1000) as opened:
        yield lambda url, lang="en": opened.open(url, lang, centre=(10.0, 11.0), k=40)


def combined_odds(pg: Any) -> Any:
    return pg.wait_for_selector('#melee-answer[data-combined="true"]')


def test_combined_melee_added_odds_and_applied_with_dice_5_10(
    serve: Running, open_page: Any, tmp_path: Path
) -> None:
    """5.10 — a's melee with d, then b added: every unit's odds (d engaged 25.0%, destroyed
    33.3%; a and b destroyed 50.0%), the groups and the dice's order; Shift-click takes b out and
    puts it back; dice 1, 5, 4, 2, 2 applied: b destroyed, d loses d/0, a and d engaged and offered
    the push-up pair by pair; the log says so and replays to the table."""
    page = open_page(serve.url)
    click_base(page, "a/0")
    click_base(page, "d/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')  # the one-a-side melee, as before
    assert page.get_attribute("#melee-answer", "data-combined") is None
    assert page.inner_text("#melee-units").count("×") == 0
    assert [o.get_attribute("value") for o in page.query_selector_all("#melee-add option")] == ["b"]

    page.click("#melee-add-btn")
    answer = combined_odds(page)
    assert "combined melee (5.10)" in answer.inner_text() and "a, b → d" in answer.inner_text()
    settle(page)
    d = page.inner_text('#melee-unit-odds li[data-unit="d"]')
    assert "engaged 25.0%" in d and "destroyed 33.3%" in d, d
    for u in ("a", "b"):
        assert "destroyed 50.0%" in page.inner_text(f'#melee-unit-odds li[data-unit="{u}"]')
    assert len(page.query_selector_all("#melee-groups li")) == 4
    assert [c.get_attribute("data-chart") for c in page.query_selector_all("#chart-melee svg")] == [
        "melee-unit-a",
        "melee-unit-b",
        "melee-unit-d",
    ]
    order = [li.inner_text() for li in page.query_selector_all("#melee-order li")]
    assert len(order) == 6
    assert order[0].startswith("attacker → d: 1 d6 on ≤ 3 (a/0)"), order
    assert order[2].startswith("defender → a: 1 d6 on ≤ 3 (d/0)"), order
    assert "first d" in order[4] and "then a, b" in order[4], order
    assert page.is_visible("#melee-order-box") and page.is_hidden("#melee-declare-l")
    assert page.query_selector('.base.joined[data-base="b/0"]')
    page.screenshot(path=str(tmp_path / "combined-odds.png"))
    page.locator("#meleebox").screenshot(path=str(tmp_path / "combined-odds-box.png"))
    page.locator("#melee-order-box").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "combined-odds-order.png"))

    click_base(page, "b/0", shift=True)  # out again: the one-a-side melee
    page.wait_for_selector('[data-chart="melee-defender"]')
    assert page.is_hidden("#melee-order-box")
    click_base(page, "b/0", shift=True)  # and back in
    combined_odds(page)
    settle(page)

    page.fill("#melee-dice", "1,5,4")  # too few: one message, nothing changes
    page.click("#melee-apply")
    assert "dice" in page.wait_for_selector("#melee-msg #action-error").inner_text()
    page.fill("#melee-dice", "1,5,4,2,2")
    page.click("#melee-apply")
    text = answered(page, "#melee-msg").inner_text()
    settle(page)
    assert (
        "a, b × d: a engaged; b destroyed (figures lost: 1, b/0); d engaged (figures lost: 1, d/0)" in text
    ), text
    assert "b is destroyed and leaves the table (PD-18)" in text
    units = page.evaluate("window.szwadron.S.doc.units.map((u) => [u.id, u.lost, u.engaged_with])")
    assert units == [["a", 0, ["d"]], ["d", 1, ["a"]]]
    pushes = page.query_selector_all("#melee-push button")
    assert [(b.get_attribute("data-push-up"), b.get_attribute("data-towards")) for b in pushes] == [
        ("a", "d"),
        ("d", "a"),
    ]
    page.click("#log-box summary")
    page.locator("#game").screenshot(path=str(tmp_path / "combined-log.png"))
    log = page.inner_text("#log-list")
    assert "b destroyed (figures lost: 1, b/0)" in log, log
    page.locator("#melee-msg").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "combined-applied.png"))
    page.locator("#meleebox").screenshot(path=str(tmp_path / "combined-applied-box.png"))

    saved = tmp_path / "game.jsonl"
    saved.write_text(download(page, "#download-log"), encoding="utf-8")
    replayed = tmp_path / "replayed.toml"
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", "replay", str(saved), "-o", str(replayed)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert replayed.read_text(encoding="utf-8") == download(page, "#download")


def test_combined_melee_in_polish_rolled_5_10(serve: Running, open_page: Any, tmp_path: Path) -> None:
    """5.10 in Polish: b joined by Shift-click, the odds and the dice's order in the rulebook's
    words; the defence declared only in a continuing melee (5.7.4); rolled from a seed, the
    answer and the log say what happened to every unit."""
    page = open_page(serve.url, "pl")
    click_base(page, "a/0")
    click_base(page, "d/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    click_base(page, "b/0", shift=True)
    answer = combined_odds(page)
    settle(page)
    assert "łączona walka wręcz (5.10)" in answer.inner_text()
    assert page.text_content("#melee-order-box .help").startswith("wpisz wyniki kości w tej kolejności")
    d = page.inner_text('#melee-unit-odds li[data-unit="d"]')
    assert "związany walką 25.0%" in d and "zniszczony 33.3%" in d, d
    order = [li.inner_text() for li in page.query_selector_all("#melee-order li")]
    assert order[0].startswith("atakujący → d: 1 K6 na ≤ 3 (a/0)"), order
    assert "test „na odrzucenie”" in order[4], order
    assert page.is_hidden("#melee-declare-l")
    page.check("#melee-continuing")
    page.wait_for_selector("#melee-declare-l", state="visible")
    assert page.text_content("#melee-declare-l").strip() == "atakujący deklarują obronę zamiast ataku (5.7.4)"
    page.uncheck("#melee-continuing")
    settle(page)
    combined_odds(page)
    page.screenshot(path=str(tmp_path / "combined-pl-odds.png"))
    page.locator("#meleebox").screenshot(path=str(tmp_path / "combined-pl-odds-box.png"))

    page.fill("#melee-seed", "7")
    page.click("#melee-roll")
    text = answered(page, "#melee-msg").inner_text()
    settle(page)
    assert text.startswith("zastosowano (walka wręcz) a, b × d: "), text
    for u in ("a", "b", "d"):
        assert f"{u} " in text.split(":", 1)[1]
    page.click("#log-box summary")
    assert "a, b × d" in page.inner_text("#log-list")
    page.locator("#game").screenshot(path=str(tmp_path / "combined-pl-log.png"))
    page.locator("#melee-msg").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "combined-pl-applied.png"))
    page.locator("#meleebox").screenshot(path=str(tmp_path / "combined-pl-applied-box.png"))


FIRST = Path(__file__).parent / "cases" / "melee_combined" / "7_7_first_strike_pair_by_pair.toml"


@pytest.fixture()
def serve_first(tmp_path: Path) -> Iterator[Running]:
    with served(tmp_path / "first", case_position(FIRST)) as running:
        yield running


def test_first_strike_pair_by_pair_on_the_page_7_7(
    serve_first: Running, open_page: Any, tmp_path: Path
) -> None:
    """7.7 pair by pair: a (first strike on the charge) and b (none) attack d (none). The page says
    a strikes first, marks a's group, lists its dice first and the rest "with the figures left"
    (b's not rolled if a's strike left d no figure), and shows the hand-worked odds (a destroyed 25.0%, d held 6.9%)."""
    page = open_page(serve_first.url)
    click_base(page, "a/0")
    click_base(page, "d/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    page.click("#melee-add-btn")
    answer = combined_odds(page)
    settle(page)
    assert "a strikes first (7.7)" in answer.inner_text(), answer.inner_text()
    first = page.query_selector_all('#melee-groups li[data-first="true"]')
    assert [li.inner_text() for li in first] == ["attacker → d: 1 d6, UW 3 (a/0) — strikes first (7.7)"]
    assert "destroyed 25.0%" in page.inner_text('#melee-unit-odds li[data-unit="a"]')
    assert "held 6.9%" in page.inner_text('#melee-unit-odds li[data-unit="d"]')
    order = [li.inner_text() for li in page.query_selector_all("#melee-order li")]
    assert order[0].startswith("attacker → d: 1 d6 on ≤ 3 (a/0)") and "strikes first (7.7)" in order[0], order
    assert all("with the figures left" in o for o in order[1:4]), order
    assert "(not rolled if d has no figure left)" in order[1], order  # b strikes d, struck first
    assert not any("no figure left" in o for o in order[2:4]), order
    page.locator("#meleebox").screenshot(path=str(tmp_path / "first-strike-box.png"))
