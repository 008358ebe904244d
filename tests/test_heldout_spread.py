"""scripts/heldout_spread.py (issue 14): what keeps held-out pairs out of 50 ± 5 %, read from
held-out sets (``points validate --json``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.search import held_out_validation

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
import heldout_spread  # noqa: E402


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three small held-out sets of the bundled lists (one random roster a list and limit, 4
    battles a pair), each as ``points validate --json`` writes it."""
    armies = load_lists(army_list_paths())
    out = []
    for seed in (1, 2, 3):
        held = held_out_validation(armies, random_rosters=1, battles=4, seed=seed, workers=1)
        path = tmp_path_factory.mktemp("held") / f"set{seed}.json"
        path.write_text(json.dumps({"held_out": held.to_json()}), encoding="utf-8")
        out.append(path)
    return out


def test_each_cell_names_its_points_limit(sets: list[Path]) -> None:
    """The held-out rosters' labels repeat from one limit to the next, so each cell of the JSON
    names its limit; both rosters of a cell are fielded at it."""
    held = json.loads(sets[0].read_text(encoding="utf-8"))["held_out"]
    at = {(r["roster"], r["points_limit"]) for r in [*held["rosters"], *held["examples"]]}
    assert {c["points_limit"] for c in held["cells"]} == {1000.0, 2000.0}
    assert all((c["a"], c["points_limit"]) in at and (c["b"], c["points_limit"]) in at for c in held["cells"])


def test_the_ceiling_and_the_pairs_in_band_against_a_count_by_hand(sets: list[Path]) -> None:
    """The pooled share in band is the pairs' own; the ceiling re-reads every pair with both
    rosters' distances from 50 % against their fields taken out."""
    armies = load_lists(army_list_paths())
    docs = [json.loads(p.read_text(encoding="utf-8"))["held_out"] for p in sets]
    lines = heldout_spread.report(docs, armies)
    pairs = [c for d in docs for c in d["cells"]]
    inside = sum(0.45 <= c["win_rate"] <= 0.55 for c in pairs) / len(pairs)
    assert lines[0].startswith(f"3 held-out set(s), {len(pairs)} pairs: {100 * inside:.1f} % within")
    even = 0
    for d in docs:
        own = {(r["points_limit"], r["roster"]): r["field_rate"] for r in [*d["rosters"], *d["examples"]]}
        for c in d["cells"]:
            lim = c["points_limit"]
            even += abs(c["win_rate"] - own[(lim, c["a"])] + own[(lim, c["b"])] - 0.5) <= 0.05
    assert lines[1] == f"every roster even against its field: {100 * even / len(pairs):.1f} % within"
    assert "by the share of each profile" in lines[2] and "by the make-up" in lines[2]


def test_older_files_without_limits_read_the_same(sets: list[Path], tmp_path: Path) -> None:
    """A file whose cells do not name their limit is read in the order the pairs are played (the
    limits ascending): the same report as with the limits."""
    bare = []
    for p in sets:
        doc = json.loads(p.read_text(encoding="utf-8"))
        for c in doc["held_out"]["cells"]:
            del c["points_limit"]
        bare.append(tmp_path / p.name)
        bare[-1].write_text(json.dumps(doc), encoding="utf-8")
    run = [sys.executable, str(REPO / "scripts" / "heldout_spread.py")]
    with_limits = subprocess.run([*run, *map(str, sets)], capture_output=True, text=True, check=True)
    without = subprocess.run([*run, *map(str, bare)], capture_output=True, text=True, check=True)
    assert without.stdout == with_limits.stdout and "within 50 ± 5 %" in without.stdout


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"share_in_band": 0.5}', "not a held-out set"),
        ("[1, 2]", "not a held-out set"),
        ("{oops", "line 1: not JSON"),
    ],
)
def test_a_file_that_is_not_a_held_out_set_is_named(tmp_path: Path, text: str, said: str) -> None:
    """Bad input: one line naming the file and what was expected, exit 2, no traceback."""
    path = tmp_path / "other.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "heldout_spread.py"), str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and said in done.stderr and str(path) in done.stderr
    assert "Traceback" not in done.stderr


def test_the_share_with_the_dice_taken_out_needs_enough_battles(sets: list[Path]) -> None:
    """Issue 14: the estimate of the chances' share (szwadron.armies.spread.share_without_dice) is
    printed only when the sets' battles a pair can carry it; as if without dice, it is the share
    measured."""
    armies = load_lists(army_list_paths())
    docs = [json.loads(p.read_text(encoding="utf-8"))["held_out"] for p in sets]
    assert not any(line.startswith("with the dice taken out") for line in heldout_spread.report(docs, armies))
    sure = [{**d, "battles": 10**9} for d in docs]
    pairs = [c for d in docs for c in d["cells"]]
    inside = sum(0.45 <= c["win_rate"] <= 0.55 for c in pairs) / len(pairs)
    lines = heldout_spread.report(sure, armies)
    assert (
        lines[2]
        == f"with the dice taken out (an estimate of the chances' share): {100 * inside:.1f} % within"
    )
