"""The README keeps, near its top, the two fresh-machine commands, and CI runs the second one."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

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


def _console_examples() -> list[tuple[str, list[str]]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                command = re.sub(r"\s+#.*$", "", line[2:]).strip()
                examples.append((command, []))
            elif examples and line.strip():
                examples[-1][1].append(line)
    return examples


def test_readme_examples_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every `$ szwadron ...` line of the README runs and prints what the README shows."""
    from szwadron.cli import main

    monkeypatch.chdir(REPO)
    examples = _console_examples()
    assert examples, "the README shows no examples"
    for command, shown in examples:
        words = shlex.split(command)
        assert words[0] == "szwadron", command
        code = main(words[1:])
        out = capsys.readouterr().out
        assert code == 0, f"{command!r} exited {code}"
        if shown:
            assert out.splitlines()[: len(shown)] == shown, f"{command!r} printed:\n{out}"
