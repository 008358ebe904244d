"""The conventions of a Python package (issue 20): one version, ``--version``, ``py.typed``, a
LICENSE, the metadata of pyproject.toml, and ``szwadron completion bash|zsh|tcsh``."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import szwadron
from szwadron.cli import COMMAND_MODULES, main

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_read_by_the_build() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "szwadron/__init__.py"
    source = (REPO / "szwadron" / "__init__.py").read_text(encoding="utf-8")
    assert len(re.findall(r"^__version__ = ", source, flags=re.M)) == 1
    assert importlib.metadata.version("szwadron") == szwadron.__version__


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"szwadron {szwadron.__version__}\n"


def test_typed_licensed_and_described() -> None:
    assert (REPO / "szwadron" / "py.typed").is_file()
    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "szwadron developers" in license_text
    project = PYPROJECT["project"]
    assert project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert "Typing :: Typed" in project["classifiers"]
    assert "LICENSE" in PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"wargame", "napoleonic", "dice"} <= set(project["keywords"])
    # every "Programming Language :: Python :: 3.N" is at least the lowest supported one
    lowest = tuple(int(n) for n in re.findall(r"\d+", project["requires-python"]))
    for c in project["classifiers"]:
        m = re.fullmatch(r"Programming Language :: Python :: (\d+)\.(\d+)", c)
        if m:
            assert (int(m[1]), int(m[2])) >= lowest, c


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_script_names_every_command(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert "szwadron" in script
    for command in COMMAND_MODULES:
        assert command in script, command
    for option in ("--shooter", "--target-at", "--first-strike", "--dpi", "--roster"):
        assert option.lstrip("-") in script, option  # tcsh lists them without the dashes


def test_bash_completion_completes_files_and_parses() -> None:
    """File arguments complete file names; the script is valid bash (when bash is here)."""
    from szwadron.cli import build_parser
    from szwadron.cli.completion import completion_script

    script = completion_script(build_parser(), "bash")
    assert "_shtab_szwadron_check_pos_0_COMPGEN=_shtab_compgen_files" in script
    assert "_shtab_szwadron_points_calibrate___lists_COMPGEN=_shtab_compgen_dirs" in script
    assert "_shtab_szwadron_odds_subparsers=(fire morale melee)" in script
    bash = shutil.which("bash")
    if bash is not None:
        done = subprocess.run([bash, "-n"], input=script, text=True, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr


def test_completion_needs_a_known_shell(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["completion", "cmd.exe"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
