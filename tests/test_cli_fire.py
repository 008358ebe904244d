"""``szwadron fire`` and ``szwadron targets`` end to end, in-process (docs/decisions.md "The command line"):
human report, ``--json`` keys, exit codes 0 / 1 (the unit cannot fire) / 2 (bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.loading import bundled_scenario

EXAMPLE = str(bundled_scenario())
CASES = Path(__file__).parent / "cases" / "fire"

_FIRE_KEYS = (
    "schema_version",  # issue 20
    "legal",
    "reason",
    "shooters",
    "targets",
    "removal_order",
    "volley",
    "removed_pmf",
    "expected",
    "morale",
)
_SHOOTER_KEYS = {"base", "can_fire", "rule", "edge", "targets", "distance", "accuracy", "dice"}
_MORALE_KEYS = {"no_test", "passed", "repulsed", "panic", "destroyed"}


def test_fire_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc)[: len(_FIRE_KEYS)] == list(_FIRE_KEYS)
    assert doc["legal"] is True and doc["reason"] is None
    assert set(doc["shooters"][0]) >= _SHOOTER_KEYS
    assert doc["shooters"][0]["edge"] == "front" and doc["shooters"][0]["accuracy"] == 2
    assert set(doc["targets"][0]) >= {"base", "eligible", "wounds", "cover"}
    assert doc["volley"] == [{"dice": 3, "accuracy": 2}]
    assert set(doc["morale"]) == _MORALE_KEYS
    assert sum(doc["morale"].values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(doc["removed_pmf"]) == pytest.approx(1.0, abs=1e-12)
    assert doc["expected"] == pytest.approx(0.5)
    assert doc["removal_order"][0] in {t["base"] for t in doc["targets"] if t["eligible"]}


def test_fire_json_matches_odds_fire(capsys: pytest.CaptureFixture[str]) -> None:
    """The table answer's odds are those of ``odds fire`` for the same dice, W and morale."""
    assert main(["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    wounds = ",".join(
        str(next(t["wounds"] for t in doc["targets"] if t["base"] == b)) for b in doc["removal_order"]
    )
    assert (
        main(
            [
                "odds",
                "fire",
                "--fire",
                "3@2",
                "--wounds",
                wounds,
                "--morale",
                "4",
                "--strength",
                "12",
                "--initial",
                "14",
                "--json",
            ]
        )
        == 0
    )
    odds = json.loads(capsys.readouterr().out)
    assert doc["removed_pmf"] == pytest.approx(odds["removed_pmf"], abs=1e-12)
    assert doc["morale"] == pytest.approx(odds["morale"], abs=1e-12)


def test_fire_human_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fire", EXAMPLE, "--shooter", "au-battery", "--target", "fr-line-1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("au-battery fires at fr-line-1 with roundshot: can fire")
    assert "au-battery/0  yes    front  39.70  2  3" in out
    assert "[4.4.3] fr-line-1/0 is in the arc of the right edge" in out
    assert "Removal order" in out and "P(removed=k)" in out
    assert "morale (M 4, 12 of 14 figures): no test" in out


def test_fire_cannot_fire_exits_1_with_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["fire", EXAMPLE, "--shooter", "au-chevaulegers", "--target", "fr-cuirassiers"]
    assert main([*args, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False and doc["reason"]["rule"] == "4.1.1"
    assert doc["volley"] == [] and doc["removed_pmf"] == [1.0] and doc["morale"]["no_test"] == 1.0
    assert main(args) == 1
    assert "CANNOT fire" in capsys.readouterr().out


def test_fire_options_bases_march_ammo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (CASES / "4_4_2_second_rank_cannot_fire.toml").read_text(encoding="utf-8")
    case = str(tmp_path / "case.toml")
    Path(case).write_text(text.split("[expected]")[0], encoding="utf-8")  # the scenario alone
    assert (
        main(["fire", case, "--shooter", "a", "--target", "b", "--bases", "0,a/1", "--march", "--json"]) == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert [s["base"] for s in doc["shooters"]] == ["a/0", "a/1"]
    assert doc["volley"] == [{"dice": 1, "accuracy": 3}] and doc["march"] is True
    assert (
        main(
            [
                "fire",
                EXAMPLE,
                "--shooter",
                "fr-battery",
                "--target",
                "au-battery",
                "--ammo",
                "canister",
                "--json",
            ]
        )
        == 1
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["ammunition"] == "canister" and doc["reason"]["rule"] == "4.5.1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shooter", "nobody", "--target", "au-line-1"], "no unit 'nobody'"),
        (["--shooter", "fr-line-1", "--target", "fr-line-2"], "rule 4.2"),
        (["--shooter", "fr-battery", "--target", "au-line-1", "--ammo", "grapeshot"], "not an ammunition"),
        (["--shooter", "fr-line-1", "--target", "au-line-1", "--bases", "99"], "no base"),
    ],
)
def test_fire_bad_input_exits_2_with_one_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fire", EXAMPLE, *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.err.count("\n") == 1


def test_fire_missing_file_and_missing_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fire", str(tmp_path / "none.toml"), "--shooter", "a", "--target", "b"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["fire", EXAMPLE, "--shooter", "a"]) == 2  # --target, unless --declare (4.12.2)
    assert "--target" in capsys.readouterr().err


def test_targets_json_ranks_and_explains(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets", EXAMPLE, "--shooter", "au-battery", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ranked = [t["expected"] for t in doc["targets"]]
    assert ranked == sorted(ranked, reverse=True) and ranked
    first = doc["targets"][0]
    assert set(first) >= {"unit", "expected", "repulsed", "panic", "repulsed_or_panic"}
    assert first["unit"] == "fr-line-1"
    assert all(c["reason"]["rule"] for c in doc["cannot"])


def test_targets_human_report_and_refused_shooter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets", EXAMPLE, "--shooter", "au-battery"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Targets of au-battery")
    assert "1  fr-line-1" in out and "Cannot fire at" in out
    assert main(["targets", EXAMPLE, "--shooter", "au-chevaulegers"]) == 0
    out = capsys.readouterr().out
    assert "none: it cannot fire" in out and "[4.1.1]" in out
    assert main(["targets", EXAMPLE, "--shooter", "nobody"]) == 2
    assert "no unit 'nobody'" in capsys.readouterr().err
