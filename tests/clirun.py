"""The command line run in-process, for the tests: ``(exit code, stdout, stderr)``."""

from __future__ import annotations

import pytest

from szwadron.cli import main


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``szwadron ARGS`` in this process; argparse's usage errors (SystemExit) exit 2 too."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err
