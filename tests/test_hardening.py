"""Issue 16: hardening, one test per finding of the hostile tester.

Bad input ends in exit 2 with one message naming the file (never exit 3, never a hang, never
memory without bound); a "no" (exit 1) or an error (2) is never turned into success by a closed
pipe; nothing is written where the user did not ask. (The strict types have their known-answer
files in ``tests/cases/bad_input/strict_*.toml`` and ``tests/cases/bad_rosters/strict_*.toml``.)
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from szwadron import files
from szwadron.cli import EXIT_BROKEN_PIPE, main
from szwadron.errors import InvalidDataError
from szwadron.limits import MAX_FILE_BYTES, MAX_NESTING
from szwadron.loading import bundled_scenario, load_scenario, read_toml

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "tests" / "cases" / "check" / "cli" / "contacts.toml"  # check --strict says "no"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


# --- special and huge files -------------------------------------------------------------------
def test_dev_zero_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """`check /dev/zero` grew without bound: a device is not a regular file."""
    code, err = _run(["check", "/dev/zero"], capsys)
    assert code == 2
    assert "/dev/zero: is a device, not a regular file" in err


def test_fifo_is_refused_without_waiting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO with no writer hung forever: it is opened without blocking and refused."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    code, err = _run(["check", str(fifo)], capsys)
    assert code == 2
    assert f"{fifo}: is a FIFO, not a regular file" in err


def test_huge_sparse_file_is_refused_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 2 GB sparse file took 32 s and 4.2 GB: its size alone refuses it."""
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(2 * 1024**3)
    code, err = _run(["check", str(big)], capsys)
    assert code == 2
    assert f"{big}: too big: 2,147,483,648 bytes" in err
    assert f"{MAX_FILE_BYTES:,} bytes" in err


def test_file_just_over_the_cap_is_refused(tmp_path: Path) -> None:
    """The cap is a setting (limits.MAX_FILE_BYTES); a file of cap + 1 bytes is refused, cap is read."""
    f = tmp_path / "x.toml"
    f.write_bytes(b"#" * 101)
    with pytest.raises(InvalidDataError, match="too big: 101 bytes"):
        files.read_input(f, limit=100)
    assert files.read_input(f, limit=101) == b"#" * 101


def test_stdin_has_the_same_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """`-` (standard input) is read at most cap + 1 bytes, then refused."""
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(files, "_stdin_read", None)
    stream = io.TextIOWrapper(io.BytesIO(b"a = 1\n" + b"#" * 5000))
    monkeypatch.setattr(sys, "stdin", stream)
    with pytest.raises(InvalidDataError, match=r"<stdin>: too big: more than 1,000 bytes"):
        read_toml("-")
    assert stream.buffer.tell() <= 1001 + io.DEFAULT_BUFFER_SIZE


def test_empty_file_name_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """`check ''` said "`.`: is a folder"."""
    code, err = _run(["check", ""], capsys)
    assert code == 2
    assert "the file name is empty" in err
    assert "`.`" not in err and ".: is a folder" not in err


def test_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["check", str(tmp_path)], capsys)
    assert code == 2
    assert f"{tmp_path}: is a folder" in err


# --- deep nesting -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 500 + "]" * 500,  # a 500-deep array
        "a = " + "{ b = " * 1000 + "1" + " }" * 1000,  # a 1,000-deep inline table
        "a = " + "[" * 100_000,  # unclosed: refused before the reader sees it
    ],
    ids=["array-500", "inline-table-1000", "unclosed-100000"],
)
def test_deep_nesting_is_bad_input_not_a_bug(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deep nesting ended in exit 3 (RecursionError in the TOML reader): now exit 2."""
    f = tmp_path / "deep.toml"
    f.write_text(text + "\n", encoding="utf-8")
    code, err = _run(["check", str(f)], capsys)
    assert code == 2, err
    assert f"{f}: line 1: lists and tables nested more than {MAX_NESTING} deep" in err


def test_nesting_inside_strings_and_comments_does_not_count(tmp_path: Path) -> None:
    deep = "[" * 200
    f = tmp_path / "ok.toml"
    f.write_text(
        f'a = "{deep}"\nb = \'{deep}\'\nc = """\n{deep}\n"""\n# {deep}\nd = [[1, [2]], {{e = "]"}}]\n',
        encoding="utf-8",
    )
    assert read_toml(f)["d"] == [[1, [2]], {"e": "]"}]


def test_deep_json_in_a_game_log_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    code, err = _run(["replay", str(log), "-o", str(tmp_path / "out.toml")], capsys)
    assert code == 2, err
    assert f"{log}: line 1: lists and tables nested more than {MAX_NESTING} deep" in err


# --- broken pipe ------------------------------------------------------------------------------
def _into_closed_pipe(args: list[str]) -> int:
    """Run the CLI with its standard output a pipe nobody reads (its reader closed)."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "szwadron", *args],
            stdout=write,
            stderr=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    return done.returncode


def test_broken_pipe_never_turns_a_no_into_success() -> None:
    """`check --strict | head -1` on a table with problems reported success 16 times in 20."""
    code = _into_closed_pipe(["check", "--strict", str(PROBLEMS)])
    assert code in (1, EXIT_BROKEN_PIPE), code
    assert EXIT_BROKEN_PIPE == 128 + 13  # as the shell reports a tool killed by SIGPIPE


def test_broken_pipe_keeps_an_error(tmp_path: Path) -> None:
    assert _into_closed_pipe(["check", str(tmp_path / "missing.toml")]) == 2


def test_broken_pipe_through_head() -> None:
    """The finding as the tester ran it: `... | head -1`, twenty times, never success."""
    script = f"{sys.executable} -m szwadron check --strict {PROBLEMS} | head -1 >/dev/null; echo ${{PIPESTATUS[0]}}"
    codes = set()
    for _ in range(5):
        out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120, check=True)
        codes.add(int(out.stdout.strip()))
    assert codes <= {1, EXIT_BROKEN_PIPE}, codes


def test_example_still_loads() -> None:
    """The strict types accept the bundled scenario as written."""
    assert load_scenario(bundled_scenario()).units


# --- writes nobody asked for ------------------------------------------------------------------
TESTLAND = ROOT / "tests" / "cases" / "armylists" / "testland.toml"
_TINY = ["--duels", "2", "--rounds", "1", "--workers", "1", "--battles", "2", "--seed", "3"]


def test_calibrate_never_rewrites_an_installed_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`points calibrate` after `pip install .` rewrote the installed lists and model."""
    installed = tmp_path / "site-packages" / "szwadron" / "_bundled" / "armylists"
    installed.mkdir(parents=True)
    shutil.copy(TESTLAND, installed / "testland.toml")
    before = (installed / "testland.toml").read_bytes()
    code, err = _run(["points", "calibrate", "--lists", str(installed), *_TINY], capsys)
    assert code == 2
    assert "is inside the installed szwadron package: calibration never rewrites it; give --out DIR" in err
    assert (installed / "testland.toml").read_bytes() == before
    assert "calibration round" not in err  # refused before any simulation
    # the model file of an installed package is refused the same way
    model = tmp_path / "site-packages" / "szwadron" / "data" / "points_model.toml"
    model.parent.mkdir(parents=True)
    lists = tmp_path / "mine"
    lists.mkdir()
    shutil.copy(TESTLAND, lists / "testland.toml")
    code, err = _run(["points", "calibrate", "--lists", str(lists), "--model", str(model), *_TINY], capsys)
    assert code == 2 and "inside the installed szwadron package" in err and not model.exists()


def test_calibrate_out_writes_copies_and_leaves_the_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed = tmp_path / "site-packages" / "szwadron" / "_bundled" / "armylists"
    installed.mkdir(parents=True)
    shutil.copy(TESTLAND, installed / "testland.toml")
    before = (installed / "testland.toml").read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    code = main(["points", "calibrate", "--lists", str(installed), "--out", str(out), *_TINY, "--json"])
    assert code == 0, capsys.readouterr().err
    assert (installed / "testland.toml").read_bytes() == before
    assert (out / "points_model.toml").is_file() and (out / "testland.toml").is_file()
    assert read_toml(out / "testland.toml")["id"] == "testland"


def test_calibrate_model_in_a_missing_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--model nodir/x.json` created folders where `plot` refuses: refused, nothing created."""
    monkeypatch.chdir(tmp_path)
    lists = tmp_path / "lists"
    lists.mkdir()
    shutil.copy(TESTLAND, lists / "testland.toml")
    code, err = _run(
        ["points", "calibrate", "--lists", str(lists), "--model", "nodir/x.json", *_TINY], capsys
    )
    assert code == 2
    assert "nodir/x.json: the folder nodir does not exist" in err
    assert not (tmp_path / "nodir").exists()
    code, err = _run(["plot", str(bundled_scenario()), "-o", "nodir/x.png"], capsys)
    assert code == 2 and "the folder nodir does not exist" in err  # the same words as plot


def _stale_france(tmp_path: Path) -> Path:
    text = (ROOT / "armylists" / "france.toml").read_text(encoding="utf-8")
    text = re.sub(r"^points = [0-9.]+", "points = 99", text, count=1, flags=re.M)  # line infantry
    path = tmp_path / "france.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_balance_warns_on_stale_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`balance` silently used points that `points` flags as stale."""
    france = _stale_france(tmp_path)
    assert main(["balance", f"{france}:corps-1000", "britain:corps-1000", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "szwadron balance: warning: stale points: france:line_infantry: stored 99" in err
    assert json.loads(out)  # the document stays clean: the warning is on stderr
    code, err = _run(["balance", "--strict", f"{france}:corps-1000", "britain:corps-1000"], capsys)
    assert code == 2 and "--strict refuses to answer with them" in err
    # the shipped lists are fresh: no warning, --strict answers
    assert main(["balance", "--strict", "france:corps-1000", "britain:corps-1000"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_points_roster_warns_on_stale_points(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    france = _stale_france(tmp_path)
    assert main(["points", str(france), "--roster", "corps-1000"]) == 0
    assert "szwadron points: warning: stale points: france:line_infantry" in capsys.readouterr().err
