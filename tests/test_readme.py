"""The README keeps, near its top, the two fresh-machine commands, and CI runs the second one;
its examples run as a reader runs them: in a shell, with the environment activated as the README
says (issue 21), exactly as printed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: How the README's first command activates the environment, so that bare ``szwadron`` runs.
ACTIVATE = ". .venv/bin/activate"


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
    # the first command activates the environment before it runs bare `szwadron`, as every
    # example does after it; the README says so for a new terminal too
    assert ACTIVATE in run and run.index(ACTIVATE) < run.index("szwadron check")
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"`{ACTIVATE}`" in text and "`.venv/bin/szwadron`" in text
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


def _activated_shell() -> tuple[str, dict[str, str]]:
    """The shell prefix and environment of a reader who activated the environment: this test
    run's own (``.venv`` when CI runs the README's second command), sourced as the README's
    ``. .venv/bin/activate``; outside a virtual environment, its scripts folder first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env.setdefault("MPLBACKEND", "Agg")
    activate = Path(sys.prefix) / "bin" / "activate"
    if sys.prefix != sys.base_prefix and activate.is_file():
        return f". {shlex.quote(str(activate))} && ", env
    env["PATH"] = sysconfig.get_path("scripts") + os.pathsep + env.get("PATH", "")
    return "", env


def _shell(line: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash") or "/bin/sh"
    prefix, env = _activated_shell()
    return subprocess.run(
        [bash, "-c", prefix + line], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_activated_shell_runs_this_environments_szwadron() -> None:
    """`szwadron` in the activated shell is the console script installed with this package,
    not a copy found elsewhere on PATH."""
    found = _shell("command -v szwadron")
    assert found.returncode == 0, "szwadron is not on PATH after activation: install the package"
    assert Path(found.stdout.strip()).parent.resolve() == Path(sysconfig.get_path("scripts")).resolve()


EXAMPLES = _console_examples()


def test_the_readme_shows_examples() -> None:
    assert len(EXAMPLES) >= 10
    for command, _shown in EXAMPLES:
        assert shlex.split(command)[0] == "szwadron", command


@pytest.fixture(scope="module")
def example_runs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Each example's run, two at a time (each is a process of its own, as at a terminal)."""
    from concurrent.futures import ThreadPoolExecutor

    commands = sorted({command for command, _ in EXAMPLES})
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(commands, pool.map(_shell, commands), strict=True))


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_runs_as_printed(
    command: str, shown: list[str], example_runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    """Every `$ szwadron ...` line of the README, typed into a shell with the environment
    activated, exits 0 and prints what the README shows under it."""
    done = example_runs[command]
    assert done.returncode == 0, f"{command!r} exited {done.returncode}:\n{done.stderr}"
    if shown:
        assert done.stdout.splitlines()[: len(shown)] == shown, f"{command!r} printed:\n{done.stdout}"
