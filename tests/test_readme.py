"""The README keeps, near its top, the two fresh-machine commands, and CI runs the second one."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README has no ```sh block"
    assert block.start() < 2000, "the two commands must stand near the top of the README"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    run, test = commands
    assert "pip install ." in run and "szwadron check scenarios/example.toml" in run
    assert "'.[test]'" in test and "pytest" in test


def test_ci_runs_the_readme_test_command() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = _readme_commands()[1]
    # CI may add quiet flags to pip; the command is otherwise the same
    ci_lines = [line.strip().replace("pip install -q ", "pip install ") for line in ci.splitlines()]
    assert test_command in ci_lines
