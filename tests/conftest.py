"""Shared test helpers: scenarios built in code with inline profiles (no army lists needed).

The ``tables`` fixture (session-scoped, stateless, so hypothesis tests may use it) offers:

- ``tables.profile(kind, *abilities)`` — an inline profile dict of that kind (1.1);
- ``tables.line(x, y, n, facing=90, gap=0, kind="infantry")`` — poses of ``n`` bases side by
  side along the frontage, the first centred at ``(x, y)``, ``gap`` cm between neighbours;
- ``tables.column(x, y, n, facing=90, gap=0, kind="infantry")`` — ``n`` bases one behind another;
- ``tables.unit(uid, side, bases, kind="infantry", abilities=(), state="normal")``;
- ``tables.scenario(*units, terrain=(), width=200, depth=200, **settings)`` → a Scenario.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from szwadron.i18n import language_from_environment
from szwadron.models import DEFAULT_BASE_SIZE_CM, Kind, Scenario

# The tests compare English answers unless they ask for Polish (issue 19): a Polish locale on the
# machine running them (LANG=pl_PL.UTF-8) must not change what every command says by default, here
# or in the commands the tests start as processes.
if language_from_environment() != "en":
    os.environ["LC_ALL"] = "C.UTF-8"

# CI runs the property tests on a fixed sequence of examples, so a submission's result does not
# depend on the draw; a developer's run explores new examples each time.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

_STATS: dict[str, dict[str, Any]] = {
    "infantry": {"R": 12, "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4},
    "cavalry": {"R": 24, "W": 2, "SW": 2, "SO": 0, "Z": 0, "UW": 4, "C": 0, "M": 4},
    "foot_artillery": {"R": 6, "W": 3, "SW": 0, "SO": 4, "Z": 60, "UW": 1, "C": 3, "M": 4},
    "horse_artillery": {"R": 12, "W": 3, "SW": 0, "SO": 3, "Z": 50, "UW": 1, "C": 3, "M": 4},
    "limber": {"R": 12, "W": 2, "SW": 0, "SO": 0, "Z": 0, "UW": 1, "C": 0, "M": 4},
}


def profile(kind: str = "infantry", *abilities: str) -> dict[str, Any]:
    return {
        "id": f"{kind}{'-' + '-'.join(abilities) if abilities else ''}".replace("_", "-"),
        "name": kind.replace("_", " ").title(),
        "kind": kind,
        **_STATS[kind],
        "abilities": list(abilities),
    }


def _place(x: float, y: float, n: int, facing: float, step: float, along: str) -> list[dict[str, Any]]:
    a = math.radians(facing)
    forward = (math.cos(a), math.sin(a))
    right = (math.sin(a), -math.cos(a))
    d = right if along == "right" else (-forward[0], -forward[1])
    return [{"x": x + k * step * d[0], "y": y + k * step * d[1], "facing": facing} for k in range(n)]


def line(
    x: float, y: float, n: int, facing: float = 90.0, gap: float = 0.0, kind: str = "infantry"
) -> list[dict[str, Any]]:
    w, _ = DEFAULT_BASE_SIZE_CM[Kind(kind)]
    return _place(x, y, n, facing, w + gap, "right")


def column(
    x: float, y: float, n: int, facing: float = 90.0, gap: float = 0.0, kind: str = "infantry"
) -> list[dict[str, Any]]:
    _, d = DEFAULT_BASE_SIZE_CM[Kind(kind)]
    return _place(x, y, n, facing, d + gap, "back")


def unit(
    uid: str,
    side: str,
    bases: list[dict[str, Any]],
    kind: str = "infantry",
    abilities: tuple[str, ...] = (),
    state: str = "normal",
) -> dict[str, Any]:
    return {"id": uid, "side": side, "profile": profile(kind, *abilities), "state": state, "bases": bases}


def scenario(
    *units: dict[str, Any],
    terrain: tuple[dict[str, Any], ...] | list[Any] = (),
    width: float = 200.0,
    depth: float = 200.0,
    **settings: Any,
) -> Scenario:
    return Scenario.model_validate(
        {
            "name": "test",
            "table": {"width": width, "depth": depth},
            "settings": settings,
            "terrain": list(terrain),
            "units": list(units),
        }
    )


@pytest.fixture(scope="session")
def tables() -> SimpleNamespace:
    """Builders of scenarios in code (see the module docstring)."""
    return SimpleNamespace(profile=profile, line=line, column=column, unit=unit, scenario=scenario)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian chromium through Playwright, one a test module (the browser tests of
    ``szwadron serve``; ``tests/browser.py`` has their helpers)."""
    from browser import CHROMIUM
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
