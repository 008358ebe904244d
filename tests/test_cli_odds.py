"""``szwadron remainder`` and ``szwadron odds`` end to end (in-process): 1.5.1, 4.6, 5.5, 6.3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from szwadron.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


# --- remainder ----------------------------------------------------------------------------------
def test_1_5_1_remainder_json_rows_for_every_r_below_w(capsys: pytest.CaptureFixture[str]) -> None:
    """1.5.1 — default: every 1 ≤ r < W ≤ 10, with reduced fraction and exactness."""
    doc = run_json(capsys, "remainder", "--json")
    assert list(doc) == ["schema_version", "die", "rows"] and doc["die"] == "d6"
    rows = doc["rows"]
    assert isinstance(rows, list) and len(rows) == sum(range(1, 10))
    two_thirds = next(r for r in rows if (r["remainder"], r["wounds"]) == (2, 3))
    assert two_thirds == {
        "remainder": 2,
        "wounds": 3,
        "fraction": "2/3",
        "remove_at_most": 4,
        "reroll": [],
        "chance": 2 / 3,
        "chance_fraction": "2/3",
        "exact": True,
    }
    one_seventh = next(r for r in rows if (r["remainder"], r["wounds"]) == (1, 7))
    assert one_seventh["chance_fraction"] == "1/6" and one_seventh["exact"] is False


def test_1_5_1_remainder_d10_writes_zero_as_ten(capsys: pytest.CaptureFixture[str]) -> None:
    """1.5.1 — the d10's 0 is written 10 in JSON."""
    rows = run_json(capsys, "remainder", "--die", "d10", "--max-wounds", "4", "--json")["rows"]
    row = next(r for r in rows if (r["remainder"], r["wounds"]) == (1, 4))
    assert row["reroll"] == [9, 10] and row["remove_at_most"] == 2


def test_pd_5_remainder_table_names_the_misprint(capsys: pytest.CaptureFixture[str]) -> None:
    """PD-5 — the human table prints the rulebook notation and calls the d6 2/3 a misprint."""
    assert main(["remainder", "--max-wounds", "4"]) == 0
    out = capsys.readouterr().out
    assert "1, reroll 5–6" in out and "≤4 *" in out and "misprint" in out


@pytest.mark.parametrize(
    "argv",
    [["remainder", "--die", "d8"], ["remainder", "--max-wounds", "1"], ["remainder", "--max-wounds", "x"]],
)
def test_remainder_bad_input_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input: unknown die, W < 2, not a number → exit 2, one message, no traceback."""
    with pytest.raises(SystemExit) as exc:
        code = main(argv)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


# --- odds fire ----------------------------------------------------------------------------------
def test_4_6_odds_fire_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    """4.6, 6.3 — the JSON document: pmfs, expected, at_least and the morale outcome."""
    doc = run_json(
        capsys,
        "odds",
        "fire",
        "--fire",
        "12@3",
        "--fire",
        "8@2",
        "--wounds",
        "2",
        "--morale",
        "4",
        "--strength",
        "8",
        "--initial",
        "10",
        "--json",
    )
    assert list(doc) == ["schema_version", "damage_pmf", "removed_pmf", "expected", "at_least", "morale"]
    assert abs(sum(doc["removed_pmf"]) - 1) < 1e-12 and abs(sum(doc["damage_pmf"]) - 1) < 1e-12
    assert len(doc["removed_pmf"]) <= 9  # capped at the 8 figures of the unit
    assert list(doc["morale"]) == ["no_test", "passed", "repulsed", "panic", "destroyed"]
    assert abs(sum(doc["morale"].values()) - 1) < 1e-12
    assert doc["at_least"][0] == 1.0
    assert abs(doc["expected"] - sum(k * p for k, p in enumerate(doc["removed_pmf"]))) < 1e-12


def test_4_6_odds_fire_expected_keeps_the_mean(capsys: pytest.CaptureFixture[str]) -> None:
    """1.5.1 — 24 dice at C3 against W 3, no cap: expected exactly 24·3/(6·3) = 4."""
    doc = run_json(capsys, "odds", "fire", "--fire", "24", "--accuracy", "3", "--wounds", "3", "--json")
    assert doc["expected"] == pytest.approx(4.0, abs=1e-12)
    assert "morale" not in doc


def test_pd_13_odds_fire_mixed_wounds_and_figures_cap(capsys: pytest.CaptureFixture[str]) -> None:
    """PD-13, PD-10 — W listed in removal order; --figures caps the figures removable."""
    doc = run_json(
        capsys, "odds", "fire", "--fire", "20@4", "--wounds", "1,2,2,3", "--figures", "3", "--json"
    )
    assert len(doc["removed_pmf"]) == 4


def test_4_5_4_odds_fire_clamps_accuracy_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """4.5.4 — accuracy outside 0–6 after modifiers is clamped with a note on stderr."""
    doc = run_json(capsys, "odds", "fire", "--fire", "6@1", "--indirect", "--wounds", "1", "--json")
    assert doc["removed_pmf"] == [1.0]
    assert main(["odds", "fire", "--fire", "6@8", "--wounds", "1"]) == 0
    captured = capsys.readouterr()
    assert "clamped" in captured.err and "Traceback" not in captured.err


def test_4_6_odds_fire_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    """Human output: P(=k), P(≥k), mean and sd, the morale line."""
    assert (
        main(
            [
                "odds",
                "fire",
                "--fire",
                "12@3",
                "--wounds",
                "2",
                "--skirmish",
                "--march",
                "--morale",
                "4",
                "--strength",
                "6",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "P(removed≥k)" in out and "mean" in out and "sd" in out
    assert "morale (M 4, 6 of 6 figures)" in out and "panic" in out


def test_odds_fire_roll_is_seeded_and_shows_dice(capsys: pytest.CaptureFixture[str]) -> None:
    """--roll --seed N: one resolution with the dice shown, reproducible."""
    argv = [
        "odds",
        "fire",
        "--fire",
        "10@3",
        "--wounds",
        "2",
        "--morale",
        "4",
        "--strength",
        "8",
        "--roll",
        "--seed",
        "42",
        "--json",
    ]
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    assert first == second and first["seed"] == 42
    faces = first["groups"][0]["faces"]
    assert len(faces) == 10 and first["groups"][0]["scored"] == sum(f <= 3 for f in faces)
    assert first["damage"] == first["groups"][0]["scored"]
    assert first["morale"]["outcome"] in {"no_test", "passed", "repulsed", "panic", "destroyed"}
    assert main(argv[:-1]) == 0
    out = capsys.readouterr().out
    assert "seed 42" in out and "scored" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "fire", "--fire", "0@3", "--wounds", "2"],
        ["odds", "fire", "--fire", "-4@3", "--wounds", "2"],
        ["odds", "fire", "--fire", "4@x", "--wounds", "2"],
        ["odds", "fire", "--fire", "4", "--wounds", "2"],  # no accuracy
        ["odds", "fire", "--fire", "4@3", "--wounds", "0"],
        ["odds", "fire", "--fire", "4@3", "--wounds", "2,0"],
        ["odds", "fire", "--fire", "4@3", "--wounds", "2", "--die", "d8"],
        [
            "odds",
            "fire",
            "--fire",
            "4@3",
            "--wounds",
            "2",
            "--morale",
            "4",
            "--strength",
            "9",
            "--initial",
            "8",
        ],
        ["odds", "fire", "--fire", "4@3", "--wounds", "2", "--morale", "4"],
        ["odds", "fire", "--fire", "4@3", "--wounds", "2", "--figures", "0"],
        [
            "odds",
            "fire",
            "--fire",
            "4@3",
            "--wounds",
            "2",
            "--morale",
            "4",
            "--strength",
            "3",
            "--figures",
            "5",
        ],
    ],
)
def test_odds_fire_bad_input_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Zero/negative dice, bad accuracy, W < 1, unknown die, strength above initial, missing
    strength: one message, exit 2, no traceback."""
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("error") == 1 and "Traceback" not in err


# --- odds morale --------------------------------------------------------------------------------
def test_6_3_odds_morale_json(capsys: pytest.CaptureFixture[str]) -> None:
    """6.3 — M 4 at 5 of 8 (≤ 3/4: −1): pass 1/2, repulsed 1/4, panic 1/4."""
    doc = run_json(capsys, "odds", "morale", "--morale", "4", "--strength", "5", "--initial", "8", "--json")
    assert doc == {"schema_version": 1, "pass": 0.5, "repulsed": 0.25, "panic": 0.25}
    doc = run_json(
        capsys,
        "odds",
        "morale",
        "--morale",
        "4",
        "--strength",
        "5",
        "--initial",
        "8",
        "--modifier",
        "1",
        "--json",
    )
    assert doc["pass"] == pytest.approx(4 / 6)


def test_6_3_odds_morale_human_and_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """Human line and a seeded roll."""
    assert main(["odds", "morale", "--morale", "3", "--strength", "2", "--initial", "8"]) == 0
    out = capsys.readouterr().out
    assert "pass on ≤0" in out and "panic 100%" in out
    doc = run_json(
        capsys,
        "odds",
        "morale",
        "--morale",
        "6",
        "--strength",
        "8",
        "--initial",
        "8",
        "--roll",
        "--seed",
        "3",
        "--json",
    )
    assert doc["outcome"] == "passed" and len(doc["tests"]) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["odds", "morale", "--morale", "4", "--strength", "9", "--initial", "8"],
        ["odds", "morale", "--morale", "4", "--strength", "-1", "--initial", "8"],
        ["odds", "morale", "--morale", "4", "--strength", "3", "--initial", "0"],
        ["odds", "morale", "--morale", "four", "--strength", "3", "--initial", "8"],
    ],
)
def test_odds_morale_bad_input_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Strength above initial, negative strength, initial 0, not a number: exit 2."""
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --- odds melee ---------------------------------------------------------------------------------
ATT = "figures=6 SW=2 UW=4 W=2 M=4"
DEF = "figures=8 SW=1 UW=3 W=2 M=3"


def test_5_5_odds_melee_json(capsys: pytest.CaptureFixture[str]) -> None:
    """5.3–5.5 — joint pmf (attacker i × defender j), marginals, outcome table."""
    doc = run_json(
        capsys,
        "odds",
        "melee",
        "--attacker",
        ATT,
        "--defender",
        DEF,
        "--first-strike",
        "attacker",
        "--initial-attacker",
        "8",
        "--json",
    )
    assert list(doc) == [
        "schema_version",
        "joint_pmf",
        "attacker_removed_pmf",
        "defender_removed_pmf",
        "outcomes",
    ]
    joint = doc["joint_pmf"]
    assert len(joint) == 7 and all(len(row) == 9 for row in joint)
    assert abs(sum(map(sum, joint)) - 1) < 1e-12
    for i, p in enumerate(doc["attacker_removed_pmf"]):
        assert abs(p - sum(joint[i])) < 1e-12
    for j, p in enumerate(doc["defender_removed_pmf"]):
        assert abs(p - sum(row[j] for row in joint)) < 1e-12
    labels = {"engaged", "held", "repulsed", "panic", "pursuit", "destroyed"}
    assert all(o["attacker"] in labels and o["defender"] in labels for o in doc["outcomes"])
    assert abs(sum(o["p"] for o in doc["outcomes"]) - 1) < 1e-12


def test_5_7_odds_melee_terrain_and_panicking_defender(capsys: pytest.CaptureFixture[str]) -> None:
    """PD-15, 6.6 — terrain raises the defender's W; a panicking defender stays in panic."""
    plain = run_json(capsys, "odds", "melee", "--attacker", ATT, "--defender", DEF, "--json")
    walled = run_json(capsys, "odds", "melee", "--attacker", ATT, "--defender", DEF + " terrain=1", "--json")
    mean = lambda pmf: sum(k * p for k, p in enumerate(pmf))  # noqa: E731
    assert mean(walled["defender_removed_pmf"]) < mean(plain["defender_removed_pmf"])
    scared = run_json(
        capsys, "odds", "melee", "--attacker", ATT, "--defender", DEF, "--panicking-defender", "--json"
    )
    assert {o["defender"] for o in scared["outcomes"]} <= {"panic", "destroyed"}


def test_odds_melee_human_and_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """Human table with means and outcomes; a seeded roll shows every die."""
    assert main(["odds", "melee", "--attacker", ATT, "--defender", DEF]) == 0
    out = capsys.readouterr().out
    assert "P(att≥k)" in out and "outcomes (5.5)" in out and "mean" in out
    doc = run_json(
        capsys, "odds", "melee", "--attacker", ATT, "--defender", DEF, "--roll", "--seed", "9", "--json"
    )
    assert doc["seed"] == 9 and {s["side"] for s in doc["strikes"]} == {"attacker", "defender"}
    assert doc["outcome"]["attacker"] in {"engaged", "held", "repulsed", "panic", "pursuit", "destroyed"}


@pytest.mark.parametrize(
    "attacker",
    [
        "figures=6 SW=2 UW=4 W=2",  # no M
        "figures=6 SW=2 UW=4 W=2 M=4 X=3",  # unknown key
        "figures=six SW=2 UW=4 W=2 M=4",
        "figures=0 SW=2 UW=4 W=2 M=4",
        "figures=6 SW=2 UW=4 W=0 M=4",
        "figures=6 SW=2 UW=9 W=2 M=4",
        "figures=6 SW=2 UW=4 W=2 M=4 strength=4",  # fewer than fought
        "figures=6 SW=2 UW=4 W=2 M=4 initial=5",  # strength above initial
        "figures=6 SW=2 UW=4 W=2 M=4 SW=3",
        "",
        "figures",
    ],
)
def test_odds_melee_malformed_side_exit_2(attacker: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed --attacker strings: one clear message, exit 2, no traceback."""
    assert main(["odds", "melee", "--attacker", attacker, "--defender", DEF]) == 2
    err = capsys.readouterr().err
    assert "--attacker" in err and "Traceback" not in err and err.count("\n") == 1


def test_odds_melee_bad_first_strike_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown --first-strike: argparse, exit 2."""
    with pytest.raises(SystemExit) as exc:
        main(["odds", "melee", "--attacker", ATT, "--defender", DEF, "--first-strike", "both"])
    assert exc.value.code == 2


# --- start-up cost ------------------------------------------------------------------------------
def test_odds_fire_imports_nothing_heavy() -> None:
    """Design — `szwadron odds fire` as a process imports no shapely, scipy or matplotlib
    (the process and its start-up time are measured in benchmarks/bench_odds.py)."""
    code = (
        "import sys; from szwadron.cli import main; "
        "rc = main(['odds', 'fire', '--fire', '24@3', '--wounds', '2', '--json']); "
        "heavy = [m for m in ('shapely', 'scipy', 'matplotlib') if m in sys.modules]; "
        "print(heavy, file=sys.stderr); sys.exit(rc)"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "[]"
