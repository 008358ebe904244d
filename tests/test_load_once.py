"""Load once (issue 13): each command reads its files once and builds the table — the
:class:`~szwadron.geometry.battlefield.Battlefield` — exactly once, plotting included."""

from __future__ import annotations

from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import load_scenario
from szwadron.table.audit import audit
from szwadron.table.melee import table_melee
from szwadron.table.morale_phase import morale_phase
from szwadron.table.movement import check_move, load_move_file, repulse
from szwadron.table.reach import reach

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "scenarios" / "example.toml"
HUSSARS = ROOT / "scenarios" / "moves" / "hussars-advance.toml"


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Wrap ``Battlefield.__init__`` so every construction is counted."""
    builds: list[int] = []
    original = Battlefield.__init__

    def counting(self: Battlefield, *args: object, **kwargs: object) -> None:
        builds.append(1)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Battlefield, "__init__", counting)
    return builds


COMMANDS = {
    "check": ["check", str(EXAMPLE), "--json"],
    "measure": ["measure", str(EXAMPLE), "fr-line-1", "au-line-1", "--json"],
    "move": ["move", str(EXAMPLE), "--unit", "fr-hussars", "--to", str(HUSSARS), "--json"],
    "move --plot": ["move", str(EXAMPLE), "--unit", "fr-hussars", "--to", str(HUSSARS), "--plot", "{png}"],
    "reach": ["reach", str(EXAMPLE), "--unit", "fr-hussars", "--target", "au-line-1", "--json"],
    "reach --plot": [
        "reach",
        str(EXAMPLE),
        "--unit",
        "fr-hussars",
        "--target",
        "au-line-1",
        "--plot",
        "{png}",
    ],
    "melee": [
        "melee",
        str(EXAMPLE),
        "--attacker",
        "fr-cuirassiers",
        "--defender",
        "au-chevaulegers",
        "--json",
    ],
    "melee --plot": [
        "melee",
        str(EXAMPLE),
        "--attacker",
        "fr-cuirassiers",
        "--defender",
        "au-chevaulegers",
        "--plot",
        "{png}",
    ],
    "morale": ["morale", str(EXAMPLE), "--side", "B", "--json"],
    "morale --plot": ["morale", str(EXAMPLE), "--side", "B", "--plot", "{png}"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_builds_the_battlefield_once(
    name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    builds = _count_builds(monkeypatch)
    argv = [a.replace("{png}", str(tmp_path / "answer.png")) for a in COMMANDS[name]]
    main(argv)
    capsys.readouterr()
    assert len(builds) == 1, f"{name}: the Battlefield was built {len(builds)} times"


def test_answers_carry_the_table_they_were_computed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules' entry points take a Battlefield and reuse it (``Battlefield.of``); the answer
    carries it for plotting; a Scenario is turned into one Battlefield, once."""
    scenario = load_scenario(EXAMPLE)
    bf = Battlefield(scenario)
    builds = _count_builds(monkeypatch)
    move = load_move_file(HUSSARS)
    tables = [
        audit(bf).table,
        check_move(bf, "fr-hussars", move).table,
        reach(bf, "fr-hussars", "au-line-1").table,
        table_melee(bf, "fr-cuirassiers", "au-chevaulegers").table,
        morale_phase(bf, "B").table,
    ]
    assert all(t is bf for t in tables)
    repulse(bf, "fr-hussars", "au-line-1")
    assert builds == []
    assert check_move(scenario, "fr-hussars", move).table is not None
    assert len(builds) == 1
