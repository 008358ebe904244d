"""``szwadron completion bash|zsh|tcsh`` — a shell completion script for the whole command line.

The script is generated from the command line's own parser by shtab, so it completes every
command, sub-command, option and choice there is; file arguments (scenarios, move files, army
lists, pictures) complete file names, ``--lists`` folders. Install it once, e.g.::

    szwadron completion bash > ~/.local/share/bash-completion/completions/szwadron
    szwadron completion zsh > ~/.zfunc/_szwadron     # with fpath+=(~/.zfunc) before compinit

Standard library only at import time; shtab is imported when the script is generated.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

#: Shells shtab writes scripts for that a player is likely to use.
SHELLS = ("bash", "zsh", "tcsh")

#: Options and positionals, by destination, that name a file (completed with file names).
FILE_ARGUMENTS = frozenset(
    {"scenario", "machine_scenario", "to", "target_at", "output", "plot", "roster", "model"}
)
#: ... that name a folder.
FOLDER_ARGUMENTS = frozenset({"lists"})


def register(subparsers: Any) -> None:
    """Add the ``completion`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or tcsh)",
        description=(
            "Print a completion script for the shell: every command, option and choice of "
            "szwadron, file names for file arguments. bash: szwadron completion bash > "
            "~/.local/share/bash-completion/completions/szwadron; zsh: szwadron completion zsh > "
            "~/.zfunc/_szwadron (with fpath+=(~/.zfunc) before compinit)."
        ),
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=run)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell``, file arguments completing file names."""
    import shtab

    _mark_files(parser, shtab.FILE, shtab.DIRECTORY)
    return str(shtab.complete(parser, shell=shell))


def _mark_files(parser: argparse.ArgumentParser, file: Any, folder: Any) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _mark_files(sub, file, folder)
        elif action.dest in FILE_ARGUMENTS:
            action.complete = file  # type: ignore[attr-defined]
        elif action.dest in FOLDER_ARGUMENTS:
            action.complete = folder  # type: ignore[attr-defined]


def run(args: argparse.Namespace) -> int:
    """Print the script on standard output."""
    from szwadron.cli import build_parser

    sys.stdout.write(completion_script(build_parser(), args.shell))
    return 0


__all__ = ["FILE_ARGUMENTS", "FOLDER_ARGUMENTS", "SHELLS", "completion_script", "register", "run"]
