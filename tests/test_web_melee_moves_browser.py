"""``szwadron serve``: the moves of a melee in a real browser — disengaging (5.8) and the push-up
after a melee in which both stood (5.6).

Debian's chromium driven by Playwright, as in ``test_web_play_browser.py``, on the hand-worked
tables of ``tests/cases/disengage/`` and ``tests/cases/push_up/``: the odds the page shows are
the cases' (2/3 to pass, 1/3 for the enemy to pursue), a dragged move still in contact is refused
with 5.8.2, the disengagement is applied with typed dice and its log line replays to the page's
table; a melee with every die missing offers the push-up, a push-up away from the enemy is
refused with 5.6.6, one towards it is applied. The page is looked at in English and in Polish;
screenshots go to the test's temporary folder.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from browser import answered, click_base, download, drag, pages, require_chromium, served, settle

CASES = Path(__file__).parent / "cases"
DISENGAGE = CASES / "disengage" / "5_8_2_passed_moves_away.toml"
PUSH_UP = CASES / "push_up" / "5_6_6_towards_the_enemy.toml"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")


def scenario_of(case: Path, *, engaged: bool = True) -> str:
    """The case's scenario (the text before ``[case]``), with or without ``engaged_with``."""
    text = case.read_text(encoding="utf-8")
    text = text[: text.index("\n[case]")] + "\n"
    if not engaged:
        text = text.replace('engaged_with = ["e"]\n', "").replace('engaged_with = ["a"]\n', "")
    return text


@pytest.fixture()
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start a server on a scenario text; stopped after the test."""
    with ExitStack() as stack:
        yield lambda text: stack.enter_context(served(tmp_path / "table", text))


@pytest.fixture()
def open_page(browser: Any) -> Iterator[Any]:
    """Zoomed onto the melee (the middle of the 100 cm table) so the bases are big enough to drag."""
    with pages(browser) as opened:
        yield lambda url, lang="en": opened.open(url, lang, centre=(51.0, 27.0), k=14)


def test_disengage_odds_a_refused_drag_and_applied_with_dice_5_8(
    serve: Any, open_page: Any, tmp_path: Path
) -> None:
    """5.8.2, 5.8.4, 6.7.1 — a's odds (pass 2/3, e pursues 1/3) and the move found straight away;
    a drag sideways still touching e is refused (5.8.2) and so is its apply; with the found move
    and dice 3, 5, 4, 4: a backs 12 cm, e pursues at once; the game log replays to the table."""
    server = serve(scenario_of(DISENGAGE))
    page = open_page(server.url)
    click_base(page, "a/0")
    page.click("#disengage-btn")
    page.wait_for_selector("#disengage-verdict")
    settle(page)
    assert page.get_attribute("#disengage-answer", "data-pass") == "2/3"
    assert "66.7%" in page.inner_text("#disengage-answer")
    pursuer = page.wait_for_selector('#disengage-pursuers li[data-unit="e"]')
    assert (pursuer.get_attribute("data-branch"), pursuer.get_attribute("data-pursuit")) == ("test", "1/3")
    assert "33.3%" in pursuer.inner_text()
    verdict = page.wait_for_selector("#disengage-verdict")
    assert (verdict.get_attribute("data-legal"), verdict.get_attribute("data-found")) == ("true", "true")
    assert len(page.query_selector_all(".ghost.away")) == 2  # where the found move ends
    page.screenshot(path=str(tmp_path / "disengage-odds.png"))

    page.click('#modes button[data-mode="move"]')
    drag(page, (49.0, 30.0), (48.0, 30.0))  # 1 cm sideways: still in contact with e
    assert page.input_value("#move-as") == "disengage"
    assert page.is_hidden("#move-apply")
    verdict = page.wait_for_selector('#disengage-verdict[data-found="false"]')
    assert (verdict.get_attribute("data-legal"), verdict.get_attribute("data-rule")) == ("false", "5.8.2")
    assert page.is_hidden("#disengage-apply-box")
    page.screenshot(path=str(tmp_path / "disengage-refused.png"))
    page.click("#move-back")
    settle(page)

    page.wait_for_selector('#disengage-verdict[data-found="true"][data-legal="true"]')
    page.click("#disengage-apply")  # no dice typed: the page says what it wants
    assert "dice you rolled" in page.wait_for_selector("#disengage-msg #action-error").inner_text()
    page.fill("#disengage-dice", "3,5")  # too few: e's pursuit needs its 2d6
    page.click("#disengage-apply")
    refused = page.wait_for_selector("#disengage-msg #action-error")
    assert "dice" in refused.inner_text()
    page.fill("#disengage-dice", "3,5,4,4")
    page.click("#disengage-apply")
    answer = answered(page, "#disengage-msg")
    assert "disengages from e (5.8.2)" in answer.inner_text(), answer.inner_text()
    settle(page)
    a = page.evaluate("window.szwadron.S.doc.units.find((u) => u.id === 'a')")
    e = page.evaluate("window.szwadron.S.doc.units.find((u) => u.id === 'e')")
    assert [b["y"] for b in a["bases"]] == [18.0, 18.0] and a["acted"] == "disengage"
    assert (e["state"], e["pursuing"]) == ("pursuit", "a")
    assert [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")] == [
        "disengage"
    ]
    assert "disengaged" in page.text_content("#log-list")
    assert page.is_hidden("#disengage-apply-box") and page.is_visible("#disengage-msg")
    page.screenshot(path=str(tmp_path / "disengage-applied.png"))

    log = tmp_path / "game.jsonl"
    log.write_text(download(page, "#download-log"), encoding="utf-8")
    replayed = tmp_path / "replayed.toml"
    out = subprocess.run(
        [sys.executable, "-m", "szwadron", "replay", str(log), "-o", str(replayed)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert replayed.read_text(encoding="utf-8") == download(page, "#download")


def test_disengage_in_polish_with_a_dragged_move_5_8(serve: Any, open_page: Any, tmp_path: Path) -> None:
    """5.8.2 in Polish: the box, the dragged move (5 cm back) checked and applied with a seed."""
    server = serve(scenario_of(DISENGAGE))
    page = open_page(server.url, "pl")
    page.click('#modes button[data-mode="move"]')
    click_base(page, "a/0")
    assert page.is_visible("#move-as-l")
    page.select_option("#move-as", "disengage")
    page.wait_for_selector("#disengage-verdict")
    assert page.text_content("#disengagebox h2") == "Oderwanie się od nieprzyjaciela (5.8)"
    drag(page, (50.0, 30.0), (50.0, 25.0))
    verdict = page.wait_for_selector('#disengage-verdict[data-found="false"]')
    assert verdict.get_attribute("data-legal") == "true", verdict.inner_text()
    assert "jak przeciągnięto" in verdict.inner_text() and "DOZWOLONE" in verdict.inner_text()
    assert "zdany" in page.inner_text("#disengage-answer")
    page.screenshot(path=str(tmp_path / "disengage-pl.png"))
    page.fill("#disengage-seed", "0")
    page.click("#disengage-roll")
    answer = answered(page, "#disengage-msg")
    assert "oderwanie" in answer.inner_text() or "odrywa" in answer.inner_text(), answer.inner_text()
    settle(page)
    page.screenshot(path=str(tmp_path / "disengage-pl-applied.png"))


def test_push_up_after_a_melee_both_stood_5_6(serve: Any, open_page: Any, tmp_path: Path) -> None:
    """5.6 — a melee with every die missing (6, 6, 6, 6 against UW 3): both stand, the page offers
    the push-up; a/2 dragged away is refused (5.6.6), dragged 3 cm towards e it is legal (3.00 of
    4 cm) and applied: not an action, a log line of its own."""
    server = serve(scenario_of(PUSH_UP, engaged=False))
    page = open_page(server.url)
    click_base(page, "a/0")
    click_base(page, "e/0")
    page.click("#melee-btn")
    page.wait_for_selector('[data-chart="melee-defender"]')
    page.fill("#melee-dice", "6,6,6,6")
    page.click("#melee-apply")
    answered(page, "#melee-msg")
    settle(page)
    offer = page.wait_for_selector('#melee-push button[data-push-up="a"]')
    page.screenshot(path=str(tmp_path / "push-up-offer.png"))
    offer.click()
    settle(page)
    assert page.evaluate("window.szwadron.S.mode") == "move"
    assert page.input_value("#move-as") == "push:e"
    assert page.query_selector('.base.candidate[data-base="a/2"]')
    page.check("#single-base")
    drag(page, (53.0, 27.0), (53.0, 24.0))  # away from e
    verdict = page.wait_for_selector("#move-verdict")
    assert (verdict.get_attribute("data-legal"), verdict.get_attribute("data-rule")) == ("false", "5.6.6")
    page.screenshot(path=str(tmp_path / "push-up-away.png"))
    page.click("#move-apply")
    assert page.wait_for_selector("#move-msg #action-error").get_attribute("data-rule") == "5.6.6"
    page.click("#move-back")
    settle(page)
    drag(page, (53.0, 27.0), (53.0, 30.0))  # 3 cm towards e/2
    verdict = page.wait_for_selector('#move-verdict[data-legal="true"]')
    assert "3.00" in page.inner_text("#move-body")
    page.screenshot(path=str(tmp_path / "push-up-legal.png"))
    page.click("#move-apply")
    assert "push-up" in answered(page, "#move-msg").inner_text()
    settle(page)
    assert page.evaluate("window.szwadron.S.pos['a'][2]") == [53, 30, 90]
    actions = [li.get_attribute("data-action") for li in page.query_selector_all("#log-list li")]
    assert actions == ["melee", "push_up"]
    page.click("#log-box summary")
    page.screenshot(path=str(tmp_path / "push-up-applied.png"))

    page.select_option("#lang", "pl")  # the same page in Polish
    settle(page)
    assert "dosuwanie" in page.text_content("#log-list")
    page.screenshot(path=str(tmp_path / "push-up-applied-pl.png"))
