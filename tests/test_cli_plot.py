"""``szwadron plot`` and ``szwadron odds ... --plot`` end to end (issue 8): each writes a
non-empty picture of the format of its suffix and of the expected pixel size; bad suffixes,
input files as output, missing folders and failed writes exit 2 and leave nothing behind."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import pytest

from szwadron.cli import main
from szwadron.loading import bundled_scenario, load_scenario
from szwadron.plots.table import parse_region, table_figsize, table_view

EXAMPLE = str(bundled_scenario())
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<?xml", "pdf": b"%PDF-"}
ATT = "figures=6 SW=2 UW=4 W=2 M=4"
DEF = "figures=8 SW=1 UW=3 W=2 M=3"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == MAGIC["png"]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def expected_pixels(region: str | None = None, dpi: int = 100) -> tuple[int, int]:
    sc = load_scenario(EXAMPLE)
    w, h = table_figsize(table_view(sc, parse_region(region) if region else None))
    return round(w * dpi), round(h * dpi)


def exit_code(argv: list[str]) -> int:
    """main's return value, or argparse's exit code."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


# --- szwadron plot ------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_plot_writes_the_format_of_the_suffix(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"table.{fmt}"
    assert main(["plot", EXAMPLE, "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(MAGIC[fmt]) and len(data) > 20_000
    if fmt == "png":
        assert png_size(out) == expected_pixels() == (1230, 730)
    if fmt == "svg":  # the bases are there, one element each, in the group "bases" (issue 16)
        text = data.decode()
        start = text.index('id="bases"')
        group = text[start : text.index("</g>", start)]
        assert group.count("<path") == sum(len(u.bases) for u in load_scenario(EXAMPLE).units)
    assert str(out) in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]  # no temporary left over


def test_plot_zones_region_and_dpi(tmp_path: Path) -> None:
    """--zones --region: a close-up sized for its region; --dpi scales the pixels."""
    out = tmp_path / "zones.png"
    region = "105,15,170,60"
    assert main(["plot", EXAMPLE, "-o", str(out), "--zones", "--region", region, "--dpi", "50"]) == 0
    assert png_size(out) == expected_pixels(region, dpi=50)
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # not the temporary file's private 0600


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-o", "table.jpg"], "unknown picture format '.jpg'"),
        (["-o", "table"], "unknown picture format (no suffix)"),
        (["-o", "table.png", "--region", "1,2,3"], "--region"),
        (["-o", "table.png", "--region", "0,0,0,10"], "no width"),
        (["-o", "table.png", "--dpi", "5"], "--dpi"),
        (["-o", "no-such-folder/table.png"], "does not exist"),
    ],
)
def test_plot_bad_input_exits_2(
    tmp_path: Path,
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert exit_code(["plot", EXAMPLE, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_plot_never_overwrites_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-o naming the scenario itself: refused, exit 2, the file untouched — whether its suffix
    is not a picture's (.toml) or is one (a scenario saved as battle.svg)."""
    toml = tmp_path / "battle.toml"
    shutil.copy(EXAMPLE, toml)
    svg = tmp_path / "battle.svg"
    shutil.copy(EXAMPLE, svg)
    before = toml.read_bytes()
    assert exit_code(["plot", str(toml), "-o", str(toml)]) == 2
    assert exit_code(["plot", str(svg), "-o", str(svg)]) == 2
    assert "refusing to overwrite an input file" in capsys.readouterr().err
    assert toml.read_bytes() == before and svg.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battle.svg", "battle.toml"]


def test_plot_failed_write_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A write failing half-way (disk full): exit 2, one message, no partial file."""
    from matplotlib.figure import Figure

    def broken(self: Any, path: Any, **kwargs: Any) -> None:
        Path(path).write_bytes(b"\x89PNG partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", broken)
    out = tmp_path / "t.png"
    assert exit_code(["plot", EXAMPLE, "-o", str(out)]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_cli_start_imports_no_matplotlib() -> None:
    """Design — ``szwadron --help`` stays fast: building the parser (with ``plot`` registered)
    imports neither matplotlib nor shapely."""
    code = (
        "import sys; from szwadron.cli import build_parser; build_parser(); "
        "import szwadron.plots, szwadron.plots._io; "
        "print([m for m in ('matplotlib', 'shapely') if m in sys.modules])"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# --- odds ... --plot ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "size"),
    [
        (["odds", "fire", "--fire", "12@3", "--fire", "8@2", "--wounds", "2"], (750, 450)),
        (
            ["odds", "fire", "--fire", "12@3", "--wounds", "2", "--morale", "4", "--strength", "12"],
            (1100, 460),
        ),
        (["odds", "melee", "--attacker", ATT, "--defender", DEF, "--first-strike", "attacker"], (1200, 500)),
        (["odds", "morale", "--morale", "4", "--strength", "8", "--initial", "12"], (600, 400)),
    ],
)
def test_odds_plot_draws_the_answer(
    tmp_path: Path, argv: list[str], size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    """4.6, 5.5, 6.3 — --plot writes the chart after the usual answer, which is unchanged."""
    out = tmp_path / "odds.png"
    assert main([*argv, "--plot", str(out)]) == 0
    captured = capsys.readouterr()
    assert png_size(out) == size
    assert out.stat().st_size > 10_000
    assert captured.out.strip()  # the normal answer still printed
    assert f"picture: {out}" in captured.err


def test_odds_plot_keeps_json_clean_and_writes_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "volley.svg"
    assert main(["odds", "fire", "--fire", "24@3", "--wounds", "2", "--json", "--plot", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)  # stdout is the JSON document only
    assert "removed_pmf" in doc
    assert out.read_bytes().startswith(MAGIC["svg"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--plot", "x.gif"], "unknown picture format"),
        (["--plot", "x.png", "--roll", "--seed", "1"], "cannot be combined with --roll"),
    ],
)
def test_odds_plot_bad_usage_exits_2_before_any_answer(
    tmp_path: Path,
    extra: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert exit_code(["odds", "morale", "--morale", "4", "--strength", "8", "--initial", "12", *extra]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert list(tmp_path.iterdir()) == []


# --- the README tour ----------------------------------------------------------------------------
def _tour() -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "make_tour.py"
    spec = importlib.util.spec_from_file_location("make_tour", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_tour"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_tour_text_is_up_to_date_and_its_commands_make_small_pictures(tmp_path: Path) -> None:
    """docs/tour.md is what scripts/make_tour.py writes, its images exist, and every command
    it shows makes a PNG under the size limit (written into tmp_path, not docs/img)."""
    tour = _tour()
    assert tour.TOUR_MD.read_text(encoding="utf-8") == tour.render_tour_md()
    for shot in tour.TOUR:
        assert (tour.REPO / tour.IMG_DIR / shot.image).is_file()
        assert f"{tour.IMG_DIR}/{shot.image}" in shot.command()
    written = tour.make(tmp_path)
    assert [p.name for p in written] == [s.image for s in tour.TOUR]
    for p in written:
        assert p.read_bytes().startswith(MAGIC["png"]) and 10_000 < p.stat().st_size < tour.MAX_BYTES


# --- overlays and the table commands' --plot (issue 8) -------------------------------------------
CASES = Path(__file__).parent / "cases" / "plot"
WHEEL = str(CASES / "hussars_wheel.toml")
WOOD = str(CASES / "reach_around_wood.toml")


@pytest.mark.parametrize(
    ("extra", "fmt"),
    [
        (["--arcs", "fr-line-1"], "png"),
        (["--fire", "fr-battery:au-line-1"], "svg"),
        (["--move", f"fr-hussars:{WHEEL}", "--zones"], "png"),
        (["--arcs", "au-battery", "--fire", "au-battery:fr-line-1", "--region", "40,20,100,70"], "pdf"),
    ],
)
def test_plot_overlays_write_a_close_up(tmp_path: Path, extra: list[str], fmt: str) -> None:
    """4.4, 4.3, PD-6 — each overlay draws; without --region the picture is the close-up of
    focus_region (not the whole table), with --region exactly that region."""
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.plots.table import table_figsize

    out = tmp_path / f"overlay.{fmt}"
    assert main(["plot", EXAMPLE, "-o", str(out), *extra]) == 0
    data = out.read_bytes()
    assert data.startswith(MAGIC[fmt]) and len(data) > 10_000
    if fmt == "png":
        assert png_size(out) != expected_pixels()  # zoomed, not the whole table
        from szwadron.plots import overlays as ov

        bf = Battlefield(load_scenario(EXAMPLE))
        geoms = (
            [ov.unit_geometry(bf, extra[1]), *ov.arc_geometries(bf, extra[1]).values()]
            if extra[0] == "--arcs"
            else ov.move_geometries(
                bf,
                __import__("szwadron.table.movement", fromlist=["x"]).check_move(
                    bf, "fr-hussars", __import__("szwadron.movefile", fromlist=["x"]).load_move_file(WHEEL)
                ),
            )
        )
        w, h = table_figsize(ov.focus_region(bf, geoms))
        assert png_size(out) == (round(w * 100), round(h * 100))
    if fmt == "svg":
        text = data.decode()
        start = text.index('id="bases"')  # one collection of the 77 bases (issue 16)
        assert text[start : text.index("</g>", start)].count("<path") == 77


def test_plot_region_all_keeps_the_whole_table(tmp_path: Path) -> None:
    out = tmp_path / "all.png"
    assert main(["plot", EXAMPLE, "-o", str(out), "--arcs", "fr-line-1", "--region", "all"]) == 0
    assert png_size(out) == expected_pixels()


def test_plot_reach_overlay(tmp_path: Path) -> None:
    out = tmp_path / "reach.png"
    assert main(["plot", WOOD, "-o", str(out), "--reach", "hussars:line"]) == 0
    assert out.stat().st_size > 10_000


@pytest.mark.parametrize(
    ("argv", "code", "size"),
    [
        (["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1"], 0, None),
        (["fire", EXAMPLE, "--shooter", "fr-battery", "--target", "au-line-1"], 1, None),
        (["melee", EXAMPLE, "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers"], 0, None),
        (["move", EXAMPLE, "--unit", "fr-hussars", "--to", WHEEL], 0, None),
        (["reach", WOOD, "--unit", "hussars", "--target", "line"], 0, None),
        (["morale", EXAMPLE, "--side", "B"], 0, None),
        (["morale", EXAMPLE, "--side", "A"], 0, None),  # nobody flees: the table alone
    ],
)
def test_table_commands_plot_their_answer(
    tmp_path: Path, argv: list[str], code: int, size: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """--plot on fire, melee, move, reach, morale: the usual answer and exit code, and a PNG
    of the answer (a close-up, with the charts beside it for fire, melee and morale)."""
    out = tmp_path / "answer.png"
    assert main([*argv, "--plot", str(out)]) == code
    captured = capsys.readouterr()
    assert captured.out.strip() and f"picture: {out}" in captured.err
    w, h = png_size(out)
    assert out.stat().st_size > 10_000 and 600 <= w <= 2400 and 380 <= h <= 1400


def test_plot_json_stays_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fire.svg"
    assert (
        main(
            [
                "fire",
                EXAMPLE,
                "--shooter",
                "au-battery",
                "--target",
                "fr-line-1",
                "--json",
                "--plot",
                str(out),
            ]
        )
        == 0
    )
    assert "removed_pmf" in json.loads(capsys.readouterr().out)
    assert out.read_bytes().startswith(MAGIC["svg"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["plot", EXAMPLE, "-o", "x.png", "--arcs", "nobody"], "nobody"),
        (["plot", EXAMPLE, "-o", "x.png", "--fire", "fr-battery"], "SHOOTER:TARGET"),
        (["plot", EXAMPLE, "-o", "x.png", "--fire", "fr-battery:fr-line-1"], "4.2"),
        (["plot", EXAMPLE, "-o", "x.png", "--move", "fr-hussars:missing.toml"], "missing.toml"),
        (["plot", "morale", "-o", "x.png", "--zones"], "--zones"),
        (["plot", "morale", "-o", "x.png", "--unit", "au-cuirassiers"], "--unit needs --scenario"),
        (["plot", "morale", "-o", "x.png", "--scenario", EXAMPLE, "--unit", "nobody"], "nobody"),
        (["plot", EXAMPLE, "-o", "x.png", "--unit", "fr-line-1"], "plot morale"),
        (["plot", "morale", "-o", "x.gif"], "unknown picture format"),
        (
            ["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1", "--plot", "x.jpg"],
            "unknown picture format",
        ),
        (["fire", EXAMPLE, "--shooter", "au-battery", "--target", "nobody", "--plot", "x.png"], "nobody"),
        (["move", EXAMPLE, "--unit", "fr-hussars", "--to", WHEEL, "--plot", "x"], "unknown picture format"),
        (
            ["melee", EXAMPLE, "--attacker", "fr-cuirassiers", "--defender", "nobody", "--plot", "x.png"],
            "nobody",
        ),
        (
            ["reach", WOOD, "--unit", "hussars", "--target", "line", "--plot", "x.bmp"],
            "unknown picture format",
        ),
        (["morale", EXAMPLE, "--side", "B", "--plot", "x.tiff"], "unknown picture format"),
    ],
)
def test_overlay_and_plot_bad_input_exits_2_without_a_file(
    tmp_path: Path,
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_plot_and_move_never_overwrite_the_move_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The move file is an input too: -o / --plot naming it is refused, the file untouched."""
    move = tmp_path / "move.svg"  # a move file whose name looks like a picture's
    shutil.copy(WHEEL, move)
    before = move.read_bytes()
    assert exit_code(["plot", EXAMPLE, "-o", str(move), "--move", f"fr-hussars:{move}"]) == 2
    assert exit_code(["move", EXAMPLE, "--unit", "fr-hussars", "--to", str(move), "--plot", str(move)]) == 2
    assert "refusing to overwrite an input file" in capsys.readouterr().err
    assert move.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["move.svg"]


def test_plot_morale_machine_and_a_scenario_named_morale(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`plot morale` draws the state machine (with a unit: its branch chances); a scenario
    file literally named "morale" is reached as ./morale."""
    monkeypatch.chdir(tmp_path)
    assert main(["plot", "morale", "-o", "machine.png"]) == 0
    assert png_size(tmp_path / "machine.png") == (1300, 760)
    assert main(["plot", "morale", "-o", "unit.svg", "--scenario", EXAMPLE, "--unit", "au-cuirassiers"]) == 0
    assert "66.7%" in (tmp_path / "unit.svg").read_text()
    shutil.copy(EXAMPLE, tmp_path / "morale")
    assert main(["plot", "./morale", "-o", "table.png"]) == 0
    assert png_size(tmp_path / "table.png") == expected_pixels()
    assert "state machine" in capsys.readouterr().out
