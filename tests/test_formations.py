"""Formations (issue 17): known answers, the round trip through ``szwadron place``, bad input.

The known answers are ``tests/cases/formations/formations.toml`` and its expansion
``formations.expected.toml``: the line and the battery with its limber reproduce units of the
bundled example (scenarios/example.toml: fr-line-1's twelve bases, au-howitzers' gun and limber);
the column, the square and the skirmishers were worked out by hand from the conventions
(docs/decisions.md "The table", "Formations": facing counter-clockwise from +x; (x, y) the middle
of the front edge; bases front rank first from the unit's own left).
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.errors import InvalidDataError
from szwadron.formations import formation_poses, formation_size
from szwadron.loading import load_scenario

CASES = Path(__file__).resolve().parent / "cases" / "formations"
EXAMPLE = Path(__file__).resolve().parent.parent / "scenarios" / "example.toml"


def _poses(sc, unit):  # type: ignore[no-untyped-def]
    return [(b.x, b.y, b.facing) for b in sc.unit(unit).bases]


def test_line_reproduces_the_example_battalion_issue17() -> None:
    """A line of 6 files and 2 ranks, front edge centred on (56, 31) facing 90: fr-line-1's bases."""
    formed = load_scenario(CASES / "formations.toml")
    example = load_scenario(EXAMPLE)
    assert _poses(formed, "line") == _poses(example, "fr-line-1")


def test_battery_with_limber_reproduces_the_example_howitzer_7_2() -> None:
    """7.2 — the gun in front, its limber behind it, edge to edge, with the limber's profile."""
    formed = load_scenario(CASES / "formations.toml")
    example = load_scenario(EXAMPLE)
    assert _poses(formed, "howitzer") == _poses(example, "au-howitzers")
    assert formed.unit("howitzer").base_profile(1).id == "limber"
    assert formed.unit("howitzer").base_profile(0).id == "howitzer_battery"


def test_column_square_and_skirmish_known_answers() -> None:
    sc = load_scenario(CASES / "formations.toml")
    # facing east (0): the unit's left is +y; front rank at x = 99, ranks behind at 97, 95
    assert _poses(sc, "column") == [
        (99.0, 41.0, 0.0), (99.0, 39.0, 0.0), (97.0, 41.0, 0.0),
        (97.0, 39.0, 0.0), (95.0, 41.0, 0.0), (95.0, 39.0, 0.0),
    ]  # fmt: skip
    # a square of 3 a face: front (facing 90), left face 180, right face 0, rear 270
    assert _poses(sc, "square") == [
        (18.0, 19.0, 90.0), (20.0, 19.0, 90.0), (22.0, 19.0, 90.0),
        (18.0, 17.0, 180.0), (22.0, 17.0, 0.0),
        (18.0, 15.0, 270.0), (20.0, 15.0, 270.0), (22.0, 15.0, 270.0),
    ]  # fmt: skip
    # 7.5 — skirmishers 2.5 cm apart: centres 4.5 cm apart
    assert _poses(sc, "volt") == [(115.5, 29.0, 90.0), (120.0, 29.0, 90.0), (124.5, 29.0, 90.0)]


def test_square_faces_touch_and_are_coherent_1_3_1() -> None:
    """Decision: a square's faces stand edge to edge, so the unit is coherent (1.3.1)."""
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.table.audit import audit

    sc = load_scenario(CASES / "formations.toml")
    report = audit(Battlefield(sc))
    doc = report.to_json()
    units = {u["id"]: u for u in doc["units"]}
    for unit in ("line", "column", "square", "volt", "howitzer"):
        assert units[unit]["coherent"], unit
    assert doc["overlaps"] == []


def test_sizes() -> None:
    assert formation_size("square", 4) == 12
    assert formation_size("line", 8, 2) == 16
    assert len(formation_poses("square", 4, 1, 50, 50, 37.0, 2, 2)) == 12
    assert len(formation_poses("battery", 2, 1, 50, 50, 90, 4, 4, limbers=(4, 4))) == 4


def test_place_writes_the_known_expansion(tmp_path: Path) -> None:
    """``szwadron place`` writes the expected file byte for byte (comments kept)."""
    out = tmp_path / "placed.toml"
    assert main(["place", str(CASES / "formations.toml"), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (CASES / "formations.expected.toml").read_text(encoding="utf-8")


def test_formation_round_trip_issue17(tmp_path: Path) -> None:
    """A formation file and its expanded bases load to the same units; placing twice changes nothing."""
    formed = load_scenario(CASES / "formations.toml")
    placed = load_scenario(CASES / "formations.expected.toml")
    for u in formed.units:
        assert [b.model_dump() for b in u.bases] == [b.model_dump() for b in placed.unit(u.id).bases]
    again = tmp_path / "again.toml"
    assert main(["place", str(CASES / "formations.expected.toml"), "-o", str(again)]) == 0
    assert again.read_bytes() == (CASES / "formations.expected.toml").read_bytes()


BAD = [
    ("x = 178.0, y = 30.0, facing = 90.0", "line", "", "units[0].formation: the formation of unit 'u' does not fit the table"),
    ("x = 50.0, y = 30.0, facing = 90.0, gap = 5.0", "skirmish", "voltigeurs", "units[0] (id 'u').formation.gap"),
    ("x = 50.0, y = 30.0, facing = 90.0", "skirmish", "", "formation.kind: skirmish order needs the skirmish ability"),
    ("x = 50.0, y = 30.0, facing = 90.0", "square", "hussars", "formation.kind: a square is infantry's"),
    ("x = 50.0, y = 30.0, facing = 90.0, gap = 1.0", "line", "", "formation.gap: only a skirmish formation takes a gap"),
    ("x = 50.0, y = 30.0, facing = 90.0, limber = \"limber\"", "line", "", "formation.limber: only a battery"),
]  # fmt: skip


@pytest.mark.parametrize(("pose", "kind", "profile", "expected"), BAD)
def test_bad_formation_names_the_field(
    tmp_path: Path, pose: str, kind: str, profile: str, expected: str
) -> None:
    """Bad input: one message naming the field; ``place`` exits 2 and writes nothing."""
    path = tmp_path / "bad.toml"
    path.write_text(
        'name = "bad"\n[table]\nwidth = 180.0\ndepth = 120.0\n[[units]]\nid = "u"\nside = "A"\n'
        f'profile = "france:{profile or "line_infantry"}"\n'
        f'formation = {{ kind = "{kind}", files = 4, {pose} }}\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidDataError) as info:
        load_scenario(path)
    assert expected in str(info.value)
    out = tmp_path / "out.toml"
    assert main(["place", str(path), "-o", str(out)]) == 2
    assert not out.exists()


def test_bases_and_formation_together_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "both.toml"
    path.write_text(
        'name = "b"\n[table]\nwidth = 100.0\ndepth = 100.0\n[[units]]\nid = "u"\nside = "A"\n'
        'profile = "france:line_infantry"\nbases = [{ x = 10.0, y = 10.0, facing = 90.0 }]\n'
        'formation = { kind = "line", files = 2, x = 50.0, y = 30.0, facing = 90.0 }\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidDataError, match=r"formation: give either 'bases' or 'formation'"):
        load_scenario(path)


def test_place_refuses_to_overwrite_its_input() -> None:
    before = hashlib.sha256((CASES / "formations.toml").read_bytes()).hexdigest()
    assert main(["place", str(CASES / "formations.toml"), "-o", str(CASES / "formations.toml")]) == 2
    assert hashlib.sha256((CASES / "formations.toml").read_bytes()).hexdigest() == before


def test_bundled_formations_battle_places_and_stands_legally_issue17(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundled ``scenarios/formations.toml``: every unit given as a formation expands into
    its ``formation_size`` bases, the table has no problem (1.3 coherent, PD-3 no overlap, on the
    table), and ``szwadron place`` writes the same bases out, one a line."""
    from szwadron.table.audit import audit

    bundled = EXAMPLE.parent / "formations.toml"
    sc = load_scenario(bundled)
    text = bundled.read_text(encoding="utf-8")
    assert text.count("formation = {") == len(sc.units) == 10
    for entry in tomllib.loads(text)["units"]:
        f = entry["formation"]
        limbers = f.get("files", 1) if f.get("limber") else 0  # 7.2: a limber behind each gun
        size = formation_size(f["kind"], f["files"], f.get("ranks", 1)) + limbers
        assert len(sc.unit(entry["id"]).bases) == size, entry["id"]
    assert not audit(sc).problems
    monkeypatch.chdir(tmp_path)
    assert main(["place", str(bundled), "-o", "placed.toml"]) == 0
    placed = load_scenario(tmp_path / "placed.toml")
    assert "formation = {" not in (tmp_path / "placed.toml").read_text(encoding="utf-8")
    for u in sc.units:
        assert _poses(placed, u.id) == _poses(sc, u.id), u.id
