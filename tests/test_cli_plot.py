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
def test_plot_writes_the_format_of_the_suffix(tmp_path: Path, fmt: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"table.{fmt}"
    assert main(["plot", EXAMPLE, "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(MAGIC[fmt]) and len(data) > 20_000
    if fmt == "png":
        assert png_size(out) == expected_pixels() == (1230, 730)
    if fmt == "svg":  # the bases are there, one element each, by id
        text = data.decode()
        assert text.count('id="base-') == sum(len(u.bases) for u in load_scenario(EXAMPLE).units)
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
def test_plot_bad_input_exits_2(tmp_path: Path, argv: list[str], message: str,
                                monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
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


def test_plot_failed_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
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
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# --- odds ... --plot ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "size"),
    [
        (["odds", "fire", "--fire", "12@3", "--fire", "8@2", "--wounds", "2"], (750, 450)),
        (["odds", "fire", "--fire", "12@3", "--wounds", "2", "--morale", "4", "--strength", "12"],
         (1100, 460)),
        (["odds", "melee", "--attacker", ATT, "--defender", DEF, "--first-strike", "attacker"],
         (1200, 500)),
        (["odds", "morale", "--morale", "4", "--strength", "8", "--initial", "12"], (600, 400)),
    ],
)
def test_odds_plot_draws_the_answer(tmp_path: Path, argv: list[str], size: tuple[int, int],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """4.6, 5.5, 6.3 — --plot writes the chart after the usual answer, which is unchanged."""
    out = tmp_path / "odds.png"
    assert main([*argv, "--plot", str(out)]) == 0
    captured = capsys.readouterr()
    assert png_size(out) == size
    assert out.stat().st_size > 10_000
    assert captured.out.strip()  # the normal answer still printed
    assert f"picture: {out}" in captured.err


def test_odds_plot_keeps_json_clean_and_writes_svg(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "volley.svg"
    assert main(["odds", "fire", "--fire", "24@3", "--wounds", "2", "--json", "--plot", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)  # stdout is the JSON document only
    assert "removed_pmf" in doc
    assert out.read_bytes().startswith(MAGIC["svg"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--plot", "x.gif"], "unknown picture format"),
     (["--plot", "x.png", "--roll", "--seed", "1"], "cannot be combined with --roll")],
)
def test_odds_plot_bad_usage_exits_2_before_any_answer(
    tmp_path: Path, extra: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert exit_code(["odds", "morale", "--morale", "4", "--strength", "8", "--initial", "12",
                      *extra]) == 2
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
