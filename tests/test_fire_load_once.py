"""Load once (issue 13): ``szwadron fire`` and ``szwadron targets`` build the
:class:`~szwadron.geometry.battlefield.Battlefield` of each table they answer on once, and a fire
answer carries that table (``FireResult.table``) so the picture reuses it.

``fire --target-at MOVE`` answers on two tables, the one read (the target's poses are checked on
it, 4.12.3; a charged unit's state before the charge, 4.12.6) and the one with the target placed
(the fire, 4.12.3, and its picture): each is built once, and ``place`` runs once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import szwadron.table.fire.reaction as reaction_module
import szwadron.table.movement as movement_module
from szwadron.cli import main
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import bundled_scenario, load_scenario
from szwadron.models import Scenario
from szwadron.table.fire import fire, targets
from tests.test_fire_reaction import FIRE_CASES, _poses, _scenario_file, _write

EXAMPLE = str(bundled_scenario())


class Counted:
    """The scenarios a Battlefield was built from, and the calls of ``place``, in order."""

    def __init__(self) -> None:
        self.tables: list[Scenario] = []
        self.places = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    seen = Counted()
    build = Battlefield.__init__
    place = movement_module.place

    def counting_init(self: Battlefield, scenario: Scenario, *args: Any, **kwargs: Any) -> None:
        seen.tables.append(scenario)
        build(self, scenario, *args, **kwargs)

    def counting_place(*args: Any, **kwargs: Any) -> Scenario:
        seen.places += 1
        return place(*args, **kwargs)

    monkeypatch.setattr(Battlefield, "__init__", counting_init)
    monkeypatch.setattr(movement_module, "place", counting_place)
    monkeypatch.setattr(reaction_module, "place", counting_place)
    yield seen


def test_cli_fire_json_builds_the_battlefield_once(
    counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    assert len(counted.tables) == 1 and counted.places == 0


def test_cli_targets_builds_the_battlefield_once(
    counted: Counted, capsys: pytest.CaptureFixture[str]
) -> None:
    """Section 4 — every enemy unit is asked on the one table."""
    assert main(["targets", EXAMPLE, "--shooter", "au-battery", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["targets"]) + len(doc["cannot"]) > 1
    assert len(counted.tables) == 1


def test_cli_fire_target_at_plot_builds_each_table_once(
    counted: Counted, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """4.12.3 — the table read and the table with the target placed, each built once; ``place``
    runs once; the picture is drawn on the placed table of the answer (not built again)."""
    sc = _scenario_file(tmp_path, FIRE_CASES / "4_12_3_interrupt_in_range.toml")
    near = _write(tmp_path, "near.toml", _poses((0, 10.0, 30.0, 270.0), (1, 12.0, 30.0, 270.0)))
    picture = tmp_path / "fire.png"
    argv = ["fire", sc, "--shooter", "a", "--target", "b", "--target-at", near, "--reaction", "declared"]
    assert main([*argv, "--json", "--plot", str(picture)]) == 0
    assert json.loads(capsys.readouterr().out)["reaction"]["rule"] == "4.12.3"
    assert picture.stat().st_size > 0
    assert counted.places == 1
    assert len(counted.tables) == 2
    read, placed = counted.tables
    assert read is not placed
    assert [(b.x, b.y) for b in placed.unit("b").bases][:2] == [(10.0, 30.0), (12.0, 30.0)]


def test_fire_and_targets_build_one_battlefield_from_a_scenario(counted: Counted) -> None:
    """The library: a scenario is turned into its battlefield once per call; a battlefield given
    is used as it is, and every answer carries it."""
    sc = load_scenario(EXAMPLE)
    r = fire(sc, "au-battery", "fr-line-1")
    assert len(counted.tables) == 1 and r.table is not None and r.table.scenario is sc
    rep = targets(sc, "au-battery")
    assert len(counted.tables) == 2
    assert len({id(x.table) for x in (*rep.possible, *rep.impossible)}) == 1
    bf = Battlefield(sc)
    assert fire(bf, "au-battery", "fr-line-1").table is bf
    assert all(x.table is bf for x in targets(bf, "au-battery").possible)
    assert len(counted.tables) == 3


def test_the_battlefield_is_not_part_of_the_answer() -> None:
    """Two answers to the same question on two builds of one table are equal, and the JSON does
    not carry the table."""
    sc = load_scenario(EXAMPLE)
    a, b = fire(sc, "au-battery", "fr-line-1"), fire(sc, "au-battery", "fr-line-1")
    assert a.table is not b.table
    assert a == b
    assert "table" not in a.to_json() and "battlefield" not in a.to_json()
