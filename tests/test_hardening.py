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
import warnings
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
_TINY = ["--duels", "6", "--rounds", "1", "--workers", "1", "--battles", "2", "--seed", "3"]


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
    # at 99 points a line figure the corps is far over its 1,000: the roster breaks its list (exit 1)
    assert main(["points", str(france), "--roster", "corps-1000"]) == 1
    captured = capsys.readouterr()
    assert "szwadron points: warning: stale points: france:line_infantry" in captured.err
    assert "over the limit of 1000" in captured.out


# --- unreadable output ------------------------------------------------------------------------
def test_odds_table_of_a_huge_volley_is_short_and_narrow(capsys: pytest.CaptureFixture[str]) -> None:
    """`odds fire --fire 1000@3` printed 559 lines up to 920 characters wide."""
    assert main(["odds", "fire", "--fire", "1000@3", "--wounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) < 150 and max(len(s) for s in lines) <= 100
    folded = [s for s in lines if "rows each below 0.01%: their sum" in s]
    assert len(folded) == 2  # the low tail and the high tail
    assert folded[-1].startswith("553–1000")
    # --all: every row, k = 0 .. 1000
    assert main(["odds", "fire", "--fire", "1000@3", "--wounds", "1", "--all"]) == 0
    rows = [s for s in capsys.readouterr().out.splitlines() if s.split(" ")[0].isdigit()]
    assert len(rows) == 1001


def test_tiny_chances_in_scientific_notation(capsys: pytest.CaptureFixture[str]) -> None:
    """`--fire 60@3` began with `0.0000000000000000867%`; the folded rows' sum is exact."""
    assert main(["odds", "fire", "--fire", "60@3", "--wounds", "1", "--all"]) == 0
    out = capsys.readouterr().out
    assert "0.0000000000" not in out
    assert "\n0     8.67e-17%" in out  # P(0 hits of 60 at 1/2) = 2^-60 = 8.67e-19 = 8.67e-17 %
    assert main(["odds", "fire", "--fire", "60@3", "--wounds", "1", "--json"]) == 0
    pmf = json.loads(capsys.readouterr().out)["damage_pmf"]
    assert main(["odds", "fire", "--fire", "60@3", "--wounds", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[2]
    low = sum(p for p in pmf[:16])
    assert first.startswith("0–15") and f"{100 * low:.3g}" in first and all(p < 1e-4 for p in pmf[:16])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["odds", "morale", "--morale", "4", "--strength", "0", "--initial", "10"],
            "--strength must be ≥ 1, got 0",
        ),
        (
            ["odds", "fire", "--fire", "5@3", "--wounds", "1", "--morale", "4", "--strength", "0"],
            "--strength must be ≥ 1, got 0",
        ),
        (["odds", "morale", "--morale", "9", "--strength", "5", "--initial", "10"], "M must be 0..6, got 9"),
        (
            ["odds", "fire", "--fire", "5@3", "--wounds", "1", "--morale", "9", "--strength", "5"],
            "M must be 0..6, got 9",
        ),
        (
            [
                "odds",
                "melee",
                "--attacker",
                "figures=5,SW=1,UW=3,W=1,M=9",
                "--defender",
                "figures=5,SW=1,UW=3,W=1,M=3",
            ],
            "--attacker: M must be 0..6, got 9",
        ),
        (
            [
                "odds",
                "melee",
                "--attacker",
                "figures=5,SW=1,UW=9,W=1,M=4",
                "--defender",
                "figures=5,SW=1,UW=3,W=1,M=3",
            ],
            "--attacker: UW must be 0..6, got 9",
        ),
    ],
    ids=["morale-strength-0", "fire-strength-0", "morale-M9", "fire-M9", "melee-M9", "melee-UW9"],
)
def test_odds_ranges_are_the_same_everywhere(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`odds morale --strength 0` was accepted where `odds fire` refused it; M=9 where UW=9 was not."""
    code, err = _run(argv, capsys)
    assert code == 2 and message in err


# --- order of refusal -------------------------------------------------------------------------
def test_plot_over_an_input_is_refused_before_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`fire … --plot INPUT` printed the whole answer, then refused the output path."""
    scenario = tmp_path / "scenario.svg"  # a scenario file may have any name
    scenario.write_bytes(bundled_scenario().read_bytes())
    (tmp_path / "armylists").symlink_to(ROOT / "armylists")
    before = scenario.read_bytes()
    argv = ["fire", str(scenario), "--shooter", "fr-line-1", "--target", "gb-line-1", "--plot", str(scenario)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{scenario}: refusing to overwrite an input file" in err
    assert main(["plot", str(scenario), "-o", str(scenario)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "refusing to overwrite an input file" in err
    assert scenario.read_bytes() == before


def test_points_plot_in_a_missing_folder_is_refused_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(["points", "validate", "--plot", "nodir/m.png"], capsys)
    assert code == 2 and "the folder nodir does not exist" in err and "validation" not in err


# --- messages ---------------------------------------------------------------------------------
def test_unpriceable_profile_names_file_and_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`points` on an unpriceable profile named neither file nor profile."""
    army = tmp_path / "drums.toml"
    army.write_text(
        'id = "drums"\nname = "Drums"\n[[profiles]]\nid = "line"\nname = "Line"\nkind = "infantry"\n'
        "R = 12\nW = 2\nSW = 1\nSO = 1\nZ = 24\nUW = 3\nC = 3\nM = 4\n"
        '[[profiles]]\nid = "drummer"\nname = "Drummer"\nkind = "infantry"\n'
        "R = 12\nW = 1\nSW = 0\nSO = 0\nZ = 0\nUW = 1\nC = 0\nM = 4\n",
        encoding="utf-8",
    )
    code, err = _run(["points", str(army)], capsys)
    assert code == 2
    assert f"{army}: profiles[1] (id 'drummer'): a figure that deals no damage" in err


@pytest.mark.parametrize("bases", ["-1", "a/b", "fr-line-1/-1", "/0"])
def test_bases_must_be_bases(bases: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--bases -1` said "no unit '-1'"."""
    with pytest.raises(SystemExit) as info:
        main(
            [
                "fire",
                str(bundled_scenario()),
                "--shooter",
                "fr-line-1",
                "--target",
                "gb-line-1",
                f"--bases={bases}",
            ]
        )
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"'{bases}' is not a base: give UNIT/INDEX or INDEX" in err and "no unit" not in err


@pytest.mark.parametrize("spec", ["france:corps-1000:extra", "france::corps-1000"])
def test_roster_spec_with_an_extra_colon(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A roster spec with an extra ':' named the wrong thing (an army list 'france:corps-1000')."""
    code, err = _run(["balance", spec, "britain"], capsys)
    assert code == 2
    assert f"side {spec!r}: expected LIST or LIST:ROSTER, with one ':' (it has 2)" in err
    assert "unknown army list" not in err


def test_tiny_region_is_refused_without_a_matplotlib_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny `--region` leaked a matplotlib warning (and crashed the font rasteriser: exit 3)."""
    out = tmp_path / "x.png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, err = _run(
            ["plot", str(bundled_scenario()), "--region", "0,0,0.001,0.001", "-o", str(out)], capsys
        )
    assert code == 2 and "a picture shows at least 1 cm each way" in err and not out.exists()
    assert "Warning" not in err


def test_no_help_shows_a_doubled_percent(capsys: pytest.CaptureFixture[str]) -> None:
    """`plot --help` showed a literal `15%%`; every command's help is checked."""
    from szwadron.cli import COMMAND_MODULES

    for command in [*COMMAND_MODULES, "odds fire", "odds melee", "points calibrate"]:
        with pytest.raises(SystemExit):
            main([*command.split(), "--help"])
        assert "%%" not in capsys.readouterr().out, command


def test_apply_output_over_the_move_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`move ... --to MOVE --apply -o MOVE` would have written the next position over the move file."""
    scenario = tmp_path / "s.toml"
    scenario.write_bytes(bundled_scenario().read_bytes())
    (tmp_path / "armylists").symlink_to(ROOT / "armylists")
    move = tmp_path / "m.toml"
    move.write_bytes((ROOT / "scenarios" / "moves" / "hussars-advance.toml").read_bytes())
    before = move.read_bytes()
    argv = ["move", str(scenario), "--unit", "fr-hussars", "--to", str(move), "--apply", "-o", str(move)]
    code, err = _run(argv, capsys)
    assert code == 2 and f"{move}: refusing to overwrite an input file" in err
    assert move.read_bytes() == before


# --- plotting at scale ------------------------------------------------------------------------
def test_box_overlap_areas_match_shapely() -> None:
    """The vectorised clipping that places labels among thousands of bases gives the areas of
    shapely's intersection: bases at any facing, on the grid or not, boxes sharing their edges,
    axis-aligned label boxes, round marks (brute force: one GEOS intersection a pair)."""
    import numpy as np
    import shapely

    from szwadron.geometry.bases import base_corners
    from szwadron.plots.table import box_overlap_areas

    rng = np.random.default_rng(16)
    polys, boxes = [], []
    for k in range(3000):
        if k % 3 == 0:  # on the grid: edges shared with the box
            x, y, f = (
                float(rng.integers(0, 10)),
                float(rng.integers(0, 10)),
                float(rng.choice([0, 90, 180, 270])),
            )
        else:
            x, y, f = rng.uniform(-5, 15), rng.uniform(-5, 15), rng.uniform(0, 360)
        polys.append(np.asarray(base_corners(x, y, f, rng.choice([2.0, 4.0]), rng.choice([2.0, 4.0]))))
        lo = rng.integers(0, 8, 2).astype(float) if k % 2 else rng.uniform(0, 8, 2)
        boxes.append((lo[0], lo[1], lo[0] + rng.uniform(0.5, 6), lo[1] + rng.uniform(0.5, 6)))
    got = box_overlap_areas(np.array(polys), np.array(boxes))
    want = [
        shapely.area(shapely.intersection(shapely.Polygon(p), shapely.box(*b)))
        for p, b in zip(polys, boxes, strict=True)
    ]
    assert np.allclose(got, want, rtol=0, atol=1e-9)
    assert 0 < int((got == 0).sum()) < len(got)  # both overlaps and misses were tried
    circles = [
        np.asarray(shapely.Point(x, y).buffer(1.2).exterior.coords)[:-1]
        for x, y in rng.uniform(0, 10, (300, 2))
    ]
    got = box_overlap_areas(np.array(circles), (2.0, 3.0, 7.0, 6.5))
    want = [
        shapely.area(shapely.intersection(shapely.Polygon(c), shapely.box(2.0, 3.0, 7.0, 6.5)))
        for c in circles
    ]
    assert np.allclose(got, want, rtol=0, atol=1e-9)
