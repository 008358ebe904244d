"""``szwadron serve``: a pursuit in the morale phase (6.7.1, 6.7.4, 6.7.5) in a real browser — whom
the unit pursues, its shortest way into contact as the move takes it, the chance that it reaches,
and the enemy units met on its way, the same numbers as ``szwadron morale``.

Debian's chromium driven by Playwright, on the hand-worked cases of ``tests/cases/pursuit_odds``
(their ``[expected]`` tables give the odds); looked at in English and in Polish.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import pages, require_chromium, served

CASES = Path(__file__).parent / "cases" / "pursuit_odds"
require_chromium()

playwright_api = pytest.importorskip("playwright.sync_api")


def _position(name: str) -> str:
    text = (CASES / name).read_text(encoding="utf-8")
    return text[: text.index("[case]")]


@pytest.fixture()
def open_page(browser: Any) -> Iterator[Any]:
    with pages(browser) as opened:
        yield lambda url, lang="en": opened.open(url, lang)


def _pursuit(page: Any) -> str:
    page.click('#phase button[data-side="A"]')
    return str(page.wait_for_selector('#morale-list li[data-unit="p"]').inner_text())


def test_6_7_4_the_page_gives_the_way_round_and_its_chance(open_page: Any, tmp_path: Path) -> None:
    """6.7.4 — round a friendly line: 20.16 cm into contact (the gap is 18 cm), 2d6 × 2 cm, and
    after a failed reorganisation test (1/3) 2d6 ≥ 11: 1/36 = 2.8 %."""
    with served(tmp_path / "round", _position("6_7_4_reach_by_the_way_round.toml")) as running:
        text = _pursuit(open_page(running.url))
    assert "pursuit of e: 20.16 cm to contact, 2d6 × 2 cm; reaches it 2.8%" in text, text


def test_6_7_5_the_page_lists_an_enemy_on_the_way(open_page: Any, tmp_path: Path) -> None:
    """6.7.5 — enemy g stands on the way round: no way into contact with e (0), g met after
    15.7 cm, reached with 5/36 = 13.9 %; the same in Polish."""
    with served(tmp_path / "enemy", _position("6_7_5_an_enemy_on_the_way_round.toml")) as running:
        page = open_page(running.url)
        text = _pursuit(page)
        assert "pursuit of e: no way into contact (3.2, 6.7.5), 2d6 × 2 cm; reaches it 0" in text, text
        assert "on the way (6.7.5): g after 15.7 cm 13.9%" in text, text
        page.locator("#morale-body").screenshot(path=str(tmp_path / "pursuit-en.png"))
        page = open_page(running.url, "pl")
        text = _pursuit(page)
        assert "pościg za e: bez drogi do styku (3.2, 6.7.5), 2K6 × 2 cm; dochodzi do niego 0" in text, text
        assert "na drodze (6.7.5): g po 15.7 cm 13.9%" in text, text
        page.locator("#morale-body").screenshot(path=str(tmp_path / "pursuit-pl.png"))


def test_2_2_1_v_the_page_lists_the_enemys_pursuers(open_page: Any, tmp_path: Path) -> None:
    """2.2.1 V, 6.7.4, PD-3 — in A's morale phase B's `pursuer` moves too, with no reorganisation
    test: `rep` 14.03 cm away, reached on 2d6 ≥ 7 (a roll of 14 cm within the contact tolerance),
    58.3 %, as `szwadron morale --side A` says."""
    case = Path(__file__).parent / "cases" / "morale_apply" / "enemy_pursuer.toml"
    text = case.read_text(encoding="utf-8").replace("x = 60.0, y = 66.0,", "x = 60.0, y = 66.03,")
    with served(tmp_path / "enemy", text) as running:
        page = open_page(running.url)
        page.click('#phase button[data-side="A"]')
        item = page.wait_for_selector('#morale-enemy-pursuits li[data-unit="pursuer"]')
        said = item.inner_text()
        assert "pursuer pursuit of rep: 14.03 cm to contact, 2d6 × 2 cm; reaches it 58.3%" in said, said
        assert "(2.2.1 V)" in page.inner_text("#morale-body")
        page.locator("#morale-body").screenshot(path=str(tmp_path / "enemy-pursuer.png"))


def test_3_2_3_the_page_counts_the_fence_on_the_way(open_page: Any, tmp_path: Path) -> None:
    """3.2.3 on 6.7.4 — a fence across a 12 cm way costs 4 cm more: 16 cm of roll to contact,
    4 of them for the fence, 2d6 ≥ 8 after a failed reorganisation test (1/3 × 15/36 = 13.9 %),
    as ``szwadron morale`` says; the same in Polish."""
    said = {
        "en": "pursuit of e: 16.00 cm to contact (4.00 cm of it for terrain, 3.2), 2d6 × 2 cm; reaches it 13.9%",
        "pl": "pościg za e: 16.00 cm do styku (w tym 4.00 cm za teren, 3.2), 2K6 × 2 cm; dochodzi do niego 13.9%",
    }
    with served(tmp_path / "fence", _position("3_2_3_across_a_fence_four_cm_more.toml")) as running:
        for lang, expected in said.items():
            page = open_page(running.url, lang)
            text = _pursuit(page)
            assert expected in text, text
            page.locator("#morale-body").screenshot(path=str(tmp_path / f"pursuit-fence-{lang}.png"))
