"""What the browser tests of ``szwadron serve`` share (issue 18): Debian's chromium found or the
module skipped (failed under ``CI=true``, where ``.ci/run`` installs it), the Playwright browser
fixture (``browser``, in ``conftest.py``), and the page helpers: wait for the page's answers, table cm to screen pixels, a drag.

A test module calls :func:`require_chromium` before it imports Playwright.
"""

from __future__ import annotations

import os
import shutil
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
