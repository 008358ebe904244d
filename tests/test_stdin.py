"""``-`` for standard input on every file argument, and ``plot -o -`` for standard output (issue 20).

Round-trips: the answer to a file piped in is the answer to the file named. A few run the real
command line in a subprocess with a real pipe; the rest run ``main`` with ``sys.stdin`` replaced.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from szwadron.cli import main

REPO = Path(__file__).resolve().parent.parent
SCENARIO = REPO / "scenarios" / "example.toml"
MOVE = REPO / "scenarios" / "moves" / "hussars-advance.toml"
ROSTERS = REPO / "tests" / "cases" / "rosters"


def _run(
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: bytes | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(words)
    out, err = capsys.readouterr()
    return code, out, err


def _pipe(words: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "szwadron", *words], input=stdin, capture_output=True, cwd=REPO, timeout=120
    )


def test_check_reads_the_scenario_from_a_real_pipe() -> None:
    named = _pipe(["check", str(SCENARIO), "--json"], b"")
    piped = _pipe(["check", "-", "--json"], SCENARIO.read_bytes())
    assert piped.returncode == named.returncode == 0, piped.stderr
    assert json.loads(piped.stdout) == json.loads(named.stdout)


def test_plot_writes_svg_to_a_real_pipe_and_says_so_on_stderr() -> None:
    done = _pipe(["plot", "-", "-o", "-"], SCENARIO.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"<?xml") and b"<svg" in done.stdout[:500]
    assert b"(svg)" in done.stderr


@pytest.mark.parametrize(
    ("command", "stdin_at"),
    [
        (["fire", "SCENARIO", "--shooter", "fr-battery", "--target", "au-battery", "--json"], "SCENARIO"),
        (["targets", "SCENARIO", "--shooter", "fr-battery", "--json"], "SCENARIO"),
        (["measure", "SCENARIO", "fr-line-1", "au-line-1", "--json"], "SCENARIO"),
        (["morale", "SCENARIO", "--side", "B", "--json"], "SCENARIO"),
        (["move", "SCENARIO", "--unit", "fr-hussars", "--to", "MOVE", "--json"], "SCENARIO"),
        (["move", "SCENARIO", "--unit", "fr-hussars", "--to", "MOVE", "--json"], "MOVE"),
    ],
)
def test_a_piped_file_gives_the_answer_of_the_named_file(
    command: list[str],
    stdin_at: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = {"SCENARIO": SCENARIO, "MOVE": MOVE}
    named = [str(files.get(w, w)) for w in command]
    piped = ["-" if w == stdin_at else str(files.get(w, w)) for w in command]
    code_named, out_named, _ = _run(named, capsys, monkeypatch)
    code_piped, out_piped, err = _run(piped, capsys, monkeypatch, files[stdin_at].read_bytes())
    assert code_piped == code_named, err
    assert json.loads(out_piped) == json.loads(out_named)


def test_fire_target_at_reads_a_move_file_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    move = b'unit = "au-battery"\n[[bases]]\nindex = 0\nx = 92.0\ny = 63.0\nfacing = 270.0\n'
    words = ["fire", str(SCENARIO), "--shooter", "fr-battery", "--target", "au-battery", "--json"]
    code, out, err = _run([*words, "--target-at", "-"], capsys, monkeypatch, move)
    assert code in (0, 1), err
    assert json.loads(out)["target_at"] is not None


def test_an_army_list_from_stdin_prices_as_the_named_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    france = REPO / "armylists" / "france.toml"
    _, named, _ = _run(["points", str(france), "--json"], capsys, monkeypatch)
    code, piped, err = _run(["points", "-", "--json"], capsys, monkeypatch, france.read_bytes())
    assert code == 0, err
    assert json.loads(piped) == json.loads(named)


def test_a_roster_file_from_stdin_in_balance_and_points(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roster's army list is looked up as for a file in the current directory."""
    monkeypatch.chdir(ROSTERS)
    roster = (ROSTERS / "good.toml").read_bytes()
    _, named, _ = _run(["balance", "good.toml", "good.toml", "--json"], capsys, monkeypatch)
    code, piped, err = _run(["balance", "-", "good.toml", "--json"], capsys, monkeypatch, roster)
    assert code == 0, err
    assert json.loads(piped)["b"] == json.loads(named)["b"]
    assert json.loads(piped)["a"]["points"] == json.loads(named)["a"]["points"]
    code, out, err = _run(
        ["points", "../armylists/testland.toml", "--roster", "-", "--json"], capsys, monkeypatch, roster
    )
    assert code == 0, err
    assert "good" in out


def test_plot_png_to_stdout_is_binary_and_whole(
    capsys: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.BytesIO()
    stdout = io.TextIOWrapper(buffer, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)
    code = main(["plot", str(SCENARIO), "-o", "-", "--format", "png"])
    stdout.flush()
    assert code == 0
    assert buffer.getvalue().startswith(b"\x89PNG\r\n\x1a\n")
    assert buffer.getvalue().endswith(b"IEND\xaeB`\x82")


class _Terminal(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def test_png_to_a_terminal_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    buffer = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", _Terminal(buffer, encoding="utf-8"))
    code = main(["plot", str(SCENARIO), "-o", "-", "--format", "png"])
    assert code == 2
    assert buffer.getvalue() == b""
    assert "refusing to write PNG to a terminal" in capsys.readouterr().err


def test_a_terminal_on_stdin_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(b""), encoding="utf-8"))
    code = main(["check", "-"])
    assert code == 2
    assert "standard input is a terminal" in capsys.readouterr().err


def test_stdin_stands_for_one_file_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(["move", "-", "--unit", "fr-hussars", "--to", "-"], capsys, monkeypatch, b"")
    assert code == 2 and out == ""
    assert "one file only" in err and "scenario, to" in err
    code, _, err = _run(["plot", "-", "-o", "x.svg", "--move", "fr-hussars:-"], capsys, monkeypatch, b"")
    assert code == 2 and "one file only" in err


def test_bad_toml_on_stdin_is_named_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = _run(["check", "-"], capsys, monkeypatch, b"x = [\n")
    assert code == 2
    assert err.startswith("szwadron check: error: <stdin>: malformed TOML")
    code, _, err = _run(["check", "-"], capsys, monkeypatch, b"")
    assert code == 2 and "<stdin>: the file is empty" in err


@pytest.mark.parametrize(
    "words",
    [
        ["fire", str(SCENARIO), "--shooter", "fr-battery", "--target", "au-battery", "--plot", "-"],
        ["points", "france", "--plot", "-"],
    ],
)
def test_plot_option_refuses_stdout_where_the_answer_goes(
    words: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = _run(words, capsys, monkeypatch)
    assert code == 2 and out == ""
    assert "cannot go to standard output" in err


def test_format_must_agree_with_the_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = _run(
        ["plot", str(SCENARIO), "-o", str(tmp_path / "t.png"), "--format", "svg"], capsys, monkeypatch
    )
    assert code == 2 and "--format says svg" in err
    assert not (tmp_path / "t.png").exists()


def test_serve_refuses_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The page saves the scenario back to its file: standard input cannot be one."""
    code, out, err = _run(["serve", "-"], capsys, monkeypatch, SCENARIO.read_bytes())
    assert code == 2 and out == ""
    assert "serve saves the scenario back to its file" in err


def test_game_commands_read_the_position_and_the_log_from_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """place and turn read the position from '-'; replay reads the game log from '-' and writes
    the same position as the action did."""
    start = tmp_path / "start.toml"
    start.write_bytes(SCENARIO.read_bytes())
    placed = tmp_path / "placed.toml"
    code, _, err = _run(["place", "-", "-o", str(placed)], capsys, monkeypatch, start.read_bytes())
    assert code == 0, err
    assert placed.read_bytes() == start.read_bytes()  # no formation to expand: the same text
    code, out, err = _run(["turn", "-", "--json"], capsys, monkeypatch, start.read_bytes())
    assert code == 0 and json.loads(out)["turn"] is None, err
    after, log = tmp_path / "after.toml", tmp_path / "game.jsonl"
    words = ["fire", str(start), "--shooter", "fr-battery", "--target", "au-battery", "--apply"]
    code, _, err = _run(
        [*words, "--roll", "--seed", "3", "-o", str(after), "--log", str(log)], capsys, monkeypatch
    )
    assert code == 0, err
    replayed = tmp_path / "replayed.toml"
    code, _, err = _run(["replay", "-", "-o", str(replayed)], capsys, monkeypatch, log.read_bytes())
    assert code == 0, err
    assert replayed.read_bytes() == after.read_bytes()


def test_undo_refuses_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """undo rewrites the log in place: standard input cannot be it."""
    code, _, err = _run(["undo", "-"], capsys, monkeypatch, b"")
    assert code == 2 and "undo rewrites the game log in place" in err
