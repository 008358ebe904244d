"""The `--json` document of every README example is byte-identical to its recorded snapshot.

The snapshots in `tests/cases/readme_json/` were recorded from the README's examples before the
package was reorganised (issue 13); a refactor must not change a single byte of them. A change of
the machine contract is made on purpose by re-recording them:
`python tests/test_readme_json_snapshot.py --record`.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SNAPSHOTS = REPO / "tests" / "cases" / "readme_json"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_readme import _console_examples  # noqa: E402


def _json_commands() -> list[list[str]]:
    commands = []
    for command, _shown in _console_examples():
        words = shlex.split(command)[1:]
        if "--json" not in words:
            words.append("--json")
        commands.append(words)
    return commands


def _snapshot_path(index: int) -> Path:
    return SNAPSHOTS / f"{index:02d}.out"


def _run(words: list[str], capsys: pytest.CaptureFixture[str] | None = None) -> str:
    from szwadron.cli import main

    code = main(words)
    assert code == 0, f"{words} exited {code}"
    if capsys is None:
        return ""
    return capsys.readouterr().out


@pytest.mark.parametrize("index", range(len(_json_commands())))
def test_readme_example_json_is_unchanged(
    index: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    words = _json_commands()[index]
    snapshot = _snapshot_path(index)
    assert snapshot.is_file(), f"no snapshot for {words}; record one with --record"
    recorded = snapshot.read_text(encoding="utf-8")
    assert recorded.startswith(f"// szwadron {shlex.join(words)}\n")
    assert _run(words, capsys) == recorded.split("\n", 1)[1], shlex.join(words)


def test_every_snapshot_belongs_to_an_example() -> None:
    names = {p.name for p in SNAPSHOTS.glob("*.out")}
    assert names == {_snapshot_path(i).name for i in range(len(_json_commands()))}


if __name__ == "__main__" and "--record" in sys.argv:
    import contextlib
    import io
    import os

    from szwadron.cli import main

    os.chdir(REPO)
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for old in SNAPSHOTS.glob("*.out"):
        old.unlink()
    for i, words in enumerate(_json_commands()):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(words) == 0, words
        _snapshot_path(i).write_text(
            f"// szwadron {shlex.join(words)}\n" + buffer.getvalue(), encoding="utf-8"
        )
        print("recorded", _snapshot_path(i).name, shlex.join(words))
