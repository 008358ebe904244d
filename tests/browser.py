"""What the browser tests of ``szwadron serve`` share (issue 18): Debian's chromium found or the
module skipped (failed under ``CI=true``, where ``.ci/run`` installs it), the Playwright browser
fixture (``browser``, in ``conftest.py``), a served table and the pages opened on it
(:func:`served`, :func:`pages`), and the page helpers: wait for the page's answers, table cm to
screen pixels, zoom, click a base, a drag, a download.

A test module calls :func:`require_chromium` before it imports Playwright.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")


def require_chromium() -> None:
    """Skip the calling module without chromium; in CI its absence is a failure."""
    if CHROMIUM is not None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI: chromium is missing; .ci/run installs Debian's chromium package", pytrace=False)
    pytest.skip(
        "no chromium on this machine (apt-get install chromium); CI runs these", allow_module_level=True
    )


def settle(pg: Any) -> None:
    """Wait until the page has its answers for the last change."""
    pg.wait_for_timeout(50)
    pg.wait_for_function("window.szwadron && window.szwadron.S.check && window.szwadron.settled()")


def screen(pg: Any, x: float, y: float) -> tuple[float, float]:
    """The screen point of the table point (x, y) in cm."""
    sx, sy = pg.evaluate(f"window.szwadron.toScreen({x}, {y})")
    return float(sx), float(sy)


def drag(pg: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 12) -> None:
    """Drag on the table from one table point to another (cm), in ``steps`` pointer moves."""
    a, b = screen(pg, *start), screen(pg, *end)
    pg.mouse.move(*a)
    pg.mouse.down()
    for k in range(1, steps + 1):
        pg.mouse.move(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
        pg.wait_for_timeout(15)
    pg.mouse.up()
    settle(pg)


def zoom(pg: Any, x: float, y: float, k: float) -> None:
    """Centre the table view on the table point (x, y) in cm, at ``k`` pixels a cm, so that the
    bases there are big enough to click and drag."""
    pg.evaluate(
        f"""() => {{ const r = document.querySelector('#table').getBoundingClientRect();
        const k = {k}; Object.assign(window.szwadron.S.view, {{ k, tx: r.width / 2 - {x} * k, ty: r.height / 2 + {y} * k }});
        document.querySelector('#world').setAttribute('transform',
          `translate(${{window.szwadron.S.view.tx}} ${{window.szwadron.S.view.ty}}) scale(${{k}} ${{-k}})`); }}"""
    )


class Pages:
    """Pages of a served table, each in a browser context of its own (``height`` px high, 1400
    wide; downloads accepted), every script error they raise kept: :func:`pages` closes them and
    fails the test on any."""

    def __init__(self, browser: Any, height: int) -> None:
        self.browser, self.height = browser, height
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(
        self, url: str, lang: str = "en", *, centre: tuple[float, float] | None = None, k: float = 14
    ) -> Any:
        """The page at ``url`` in ``lang``, settled, its view zoomed onto ``centre`` when given."""
        context = self.browser.new_context(
            viewport={"width": 1400, "height": self.height}, accept_downloads=True
        )
        self.contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.goto(f"{url}?lang={lang}")
        settle(pg)
        if centre is not None:
            zoom(pg, *centre, k)
        return pg


@contextmanager
def pages(browser: Any, height: int = 900) -> Iterator[Pages]:
    """:class:`Pages` for one test: closed at its end, the test failed on any script error."""
    opened = Pages(browser, height)
    yield opened
    for c in opened.contexts:
        c.close()
    assert not opened.errors, opened.errors


def case_position(case: Path) -> str:
    """A known-answer case file as a plain position (its [check]/[expected] tables cut off)."""
    text = case.read_text(encoding="utf-8")
    return text[: text.index("[check]")]


@contextmanager
def served(folder: Path, text: str) -> Iterator[Any]:
    """``szwadron serve`` on ``text`` written as ``table.toml`` in a folder of its own; stopped after."""
    from szwadron.web import start

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "table.toml").write_text(text, encoding="utf-8")
    running = start(folder / "table.toml")
    try:
        yield running
    finally:
        running.stop()


def click_base(pg: Any, base: str, *, shift: bool = False) -> None:
    """Click the centre of ``base`` (``unit/index``) on the table; with ``shift``, Shift-click."""
    uid, index = base.split("/")
    x, y = pg.evaluate(f"window.szwadron.S.pos[{json.dumps(uid)}][{index}]")[:2]
    if shift:
        pg.keyboard.down("Shift")
    pg.mouse.click(*screen(pg, x, y))
    if shift:
        pg.keyboard.up("Shift")
    pg.wait_for_timeout(30)
    settle(pg)


def answered(pg: Any, box: str) -> Any:
    """The answer (or refusal) an action wrote in ``box``."""
    return pg.wait_for_selector(f"{box} #action-answer, {box} #action-error")


def download(pg: Any, button: str) -> str:
    """The text of the file a click on ``button`` downloads."""
    with pg.expect_download() as info:
        pg.click(button)
    return Path(info.value.path()).read_text(encoding="utf-8")
