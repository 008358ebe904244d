"""The game from turn to turn (issue 17): a scripted short game on the example battle, its
known-answer log, replay of every intermediate position, undo, and bad input.

The script (:data:`SCRIPT`) plays two rounds on ``tests/cases/game/start.toml`` (a copy of
the bundled example) with the commands a player types: the turn counter (2), moves (3), fire
with fixed dice (4.6, 1.5.1, 4.7, 4.8.1). Its log is the known answer
``tests/cases/game/game.jsonl``; ``python tests/test_game.py --record`` writes it again (check
the diff: the rulings must be the ones the comments of :data:`SCRIPT` give).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.loading import load_scenario

CASES = Path(__file__).resolve().parent / "cases" / "game"

#: (command line, position written, what the rules decide)
SCRIPT: list[tuple[list[str], str]] = [
    # round 1, side A
    (["turn", "start.toml", "--apply", "-o", "p01.toml"], "round 1, side A, morale phase (2.2)"),
    (["turn", "p01.toml", "--apply", "-o", "p02.toml"], "side A's movement phase (2.3)"),
    (
        ["move", "p02.toml", "--unit", "fr-hussars", "--to", "hussars-advance.toml", "--apply", "-o", "p03.toml"],
        "the hussars advance 20 cm of their 28 (3.1.5)",
    ),
    (
        ["fire", "p03.toml", "--shooter", "fr-battery", "--target", "au-battery", "--apply", "-o", "p04.toml",
         "--dice", "3,5,6"],
        "roundshot, 3 dice on ≤2: no hit, no test (4.8.1)",
    ),
    (["turn", "p04.toml", "--apply", "-o", "p05.toml"], "side B's morale phase; acted forgotten"),
    (["turn", "p05.toml", "--apply", "-o", "p06.toml"], "side B's movement phase"),
    (
        ["fire", "p06.toml", "--shooter", "au-battery", "--target", "fr-line-1", "--apply", "-o", "p07.toml",
         "--dice", "1,1,2", "--remainder-dice", "3", "--morale-dice", "5,2"],
        "3 damage against W 2: one figure and a remainder of 1/2 (≤3 on a d6, rolled 3: one more); "
        "fr-line-1/5 and /4 removed (4.7); 10 of 14 figures: M 4 - 1; repulse test 5 fails, panic "
        "test 2 passes: repulsed (6.3)",
    ),
    (
        ["move", "p07.toml", "--unit", "au-line-1", "--to", "au-advance.toml", "--apply", "-o", "p08.toml"],
        "IR 4 advances 10 cm",
    ),
    (["turn", "p08.toml", "--apply", "-o", "p09.toml"], "round 2, side A's morale phase"),
    (["turn", "p09.toml", "--apply", "-o", "p10.toml"], "side A's movement phase"),
    (
        ["move", "p10.toml", "--unit", "fr-line-1", "--to", "line-back.toml", "--apply", "-o", "p11.toml"],
        "fr-line-1, ten bases, steps back 5 cm",
    ),
    (
        ["fire", "p11.toml", "--shooter", "fr-horse-battery", "--target", "au-battery", "--apply", "-o",
         "p12.toml", "--dice", "1,2", "--remainder-dice", "5", "--morale-dice", "6,6"],
        "2 dice on ≤2, both hit: 2 damage against the gun's W 4, a remainder of 2/4 (≤3 on a d6, "
        "rolled 5: none removed); the battery tests (4.8.1), fails both: panic (6.3)",
    ),
    (
        ["melee", "p12.toml", "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers", "--apply", "-o",
         "p13.toml", "--dice", "1,1,1,5,5,5,5,5,4,2,6,6,6,6,6,6,6,6,2,2,2"],
        "the melee in progress (5.3): the cuirassiers' 8 dice on ≤4 score 3 against W 2 (one figure, "
        "remainder 1/2 rolled 4: none more), au-chevaulegers/0 removed (5.4); the Austrians' 8 on ≤3 "
        "score 1 against W 4 (remainder 1/4: 6 rerolled, 2: none); both pass their tests (5.5.2, "
        "5.5.4) and stay engaged (5.5.7); the attacker pushes up one figure (5.6)",
    ),
    (["turn", "p13.toml", "--apply", "-o", "p14.toml"], "round 2, side B's morale phase"),
    (
        ["morale", "p14.toml", "--side", "B", "--apply", "-o", "p15.toml", "--dice", "5,2,3,4"],
        "2.2.1: the reorganisations first — the cuirassiers (M 5, 4 of 6: -1) fail (5 > 4), the "
        "battery reorganises (2 ≤ 4, 6.8) —, then the flights: the cuirassiers flee 7 × 4 = 28 cm, "
        "more than the 18 cm to their edge: off the table (6.6)",
    ),
    (["turn", "p15.toml", "--apply", "-o", "p16.toml"], "side B's movement phase"),
]  # fmt: skip

INPUTS = ("start.toml", "hussars-advance.toml", "au-advance.toml", "line-back.toml", "too-far.toml")


def _play(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    for name in INPUTS:
        shutil.copy(CASES / name, folder / name)
    monkeypatch.chdir(folder)
    return [main([*argv, "--log", "game.jsonl"]) for argv, _ in SCRIPT]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_scripted_game_matches_the_known_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 — the scripted game writes the known-answer log byte for byte."""
    codes = _play(tmp_path, monkeypatch)
    assert codes == [0] * len(SCRIPT)
    assert (tmp_path / "game.jsonl").read_text(encoding="utf-8") == (CASES / "game.jsonl").read_text(
        encoding="utf-8"
    )


def test_replay_reproduces_every_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay --to N`` writes the N-th position byte for byte; each is a valid scenario."""
    _play(tmp_path, monkeypatch)
    positions = [tmp_path / "start.toml"] + [tmp_path / argv[argv.index("-o") + 1] for argv, _ in SCRIPT]
    for n, expected in enumerate(positions):
        out = tmp_path / f"replayed-{n}.toml"
        assert main(["replay", "game.jsonl", "-o", str(out), "--to", str(n)]) == 0
        assert out.read_bytes() == expected.read_bytes(), n
    load_scenario(positions[-1])  # the last position loads
    assert main(["replay", "game.jsonl", "-o", "last.toml"]) == 0
    assert (tmp_path / "last.toml").read_bytes() == positions[-1].read_bytes()


def test_known_rulings_in_the_log_4_7_6_3() -> None:
    """The rulings of the known log: the Austrian roundshot removes fr-line-1/5 and /4 (4.7.2,
    nearest first; 4.7.4 not side by side where possible) and repulses the battalion (6.3)."""
    lines = [json.loads(line) for line in (CASES / "game.jsonl").read_text(encoding="utf-8").splitlines()]
    fire = lines[7]
    assert fire["action"] == "fire"
    assert fire["dice"]["volley"] == [{"dice": 3, "accuracy": 2, "faces": [1, 1, 2], "scored": 3}]
    assert fire["dice"]["remainder"]["instruction"] == "≤3"
    assert fire["ruling"]["removed"] == ["fr-line-1/5", "fr-line-1/4"]
    assert fire["ruling"]["morale"] == "repulsed"
    assert [t["target"] for t in fire["dice"]["morale"]] == [3, 3]  # M 4, 10 of 14 figures: -1 (6.2)
    miss = lines[4]
    assert miss["ruling"] == {
        "damage": 0,
        "removed": [],
        "strength": 1,
        "morale": "no_test",
        "state": "normal",
    }


def test_position_after_fire_keeps_comments_and_sets_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _play(tmp_path, monkeypatch)
    after = load_scenario(tmp_path / "p07.toml")
    unit = after.unit("fr-line-1")
    assert unit.strength == 10 and unit.starting_strength == 14 and unit.figures_lost == 4
    assert after.unit("au-battery").acted is not None
    text = (tmp_path / "p07.toml").read_text(encoding="utf-8")
    assert text.startswith("# The bundled example")
    assert after.turn is not None and (after.turn.round, after.turn.side, after.turn.phase.value) == (
        1,
        "B",
        "movement",
    )


def test_illegal_actions_leave_every_file_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused with the rule (exit 1), nothing written: the same hashes before and after."""
    _play(tmp_path, monkeypatch)
    files = sorted(tmp_path.iterdir())
    before = {p.name: _sha(p) for p in files}
    illegal = [
        ["move", "p12.toml", "--unit", "fr-hussars", "--to", "too-far.toml"],  # 3.1.5
        ["move", "p12.toml", "--unit", "au-line-1", "--to", "au-advance.toml"],  # 2.3: side B in A's turn
        ["fire", "p12.toml", "--shooter", "fr-horse-battery", "--target", "au-battery", "--dice", "1,1"],
        ["move", "p09.toml", "--unit", "fr-hussars", "--to", "too-far.toml"],  # 2.2: morale phase
        ["morale", "p16.toml", "--side", "B", "--dice", "1"],  # 2.2: B's movement phase
        ["melee", "p16.toml", "--attacker", "au-line-1", "--defender", "fr-line-1", "--dice", "1"],
        ["fire", "p16.toml", "--shooter", "au-battery", "--target", "fr-line-1", "--dice", "1"],
    ]  # fmt: skip
    rules = ("3.1.5", "2.3", "2.3", "2.2", "2.2", "5.3", "6.8")
    capsys.readouterr()
    for argv, rule in zip(illegal, rules, strict=True):
        log = ["--log", "game.jsonl"] if argv[1] == "p16.toml" else []  # the log ends at p16
        assert main([*argv, "--apply", "-o", "never.toml", *log]) == 1, argv
        err = capsys.readouterr().err
        assert f"(rule {rule}); nothing written" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in files]
    assert {p.name: _sha(p) for p in files} == before


def test_undo_drops_the_last_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _play(tmp_path, monkeypatch)
    assert main(["undo", "game.jsonl", "-o", "undone.toml"]) == 0
    assert (tmp_path / "undone.toml").read_bytes() == (tmp_path / "p15.toml").read_bytes()
    lines = (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(SCRIPT)
    # the game goes on from the undone position
    assert main([*SCRIPT[-1][0], "--log", "game.jsonl"]) == 0
    assert (tmp_path / "game.jsonl").read_bytes() == (CASES / "game.jsonl").read_bytes()


def _tamper(path: Path, n: int, edit: object) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[n] = edit(lines[n]) if callable(edit) else str(edit)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            (3, lambda s: s.replace('"y": 50.0', '"y": 51.0', 1)),
            "line 4: the line was changed after it was written",
        ),
        ((3, None), "line 4.prev: does not follow line 3"),
        ((0, lambda s: s.replace("IR 4", "IR 5")), "line 1: the line was changed"),
        ((5, "not json"), "line 6: not JSON"),
    ],
)
def test_tampered_log_is_bad_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    edit: tuple,
    expected: str,
) -> None:
    """A changed, dropped or broken line: one message naming the line, exit 2, nothing written."""
    shutil.copy(CASES / "game.jsonl", tmp_path / "game.jsonl")
    monkeypatch.chdir(tmp_path)
    n, change = edit
    if change is None:
        lines = (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()
        del lines[n]
        (tmp_path / "game.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    else:
        _tamper(tmp_path / "game.jsonl", n, change)
    capsys.readouterr()
    assert main(["replay", "game.jsonl", "-o", "out.toml"]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err
    assert not (tmp_path / "out.toml").exists()


def test_log_of_another_position_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Applying to a position the log does not end at: exit 2, nothing written."""
    _play(tmp_path, monkeypatch)
    before = _sha(tmp_path / "game.jsonl")
    argv = ["move", "p10.toml", "--unit", "fr-line-1", "--to", "line-back.toml", "--apply", "-o", "x.toml"]
    assert main([*argv, "--log", "game.jsonl"]) == 2
    assert _sha(tmp_path / "game.jsonl") == before and not (tmp_path / "x.toml").exists()


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        (["--dice", "1,2"], "--dice gives 2 dice; the volley rolls 3 (3 on ≤2)"),
        (["--dice", "1,2,7"], "--dice die 3 is 7, not a face of a d6"),
        (["--dice", "1,1,2", "--morale-dice", "5,2"], "--remainder-dice missing: 3 damage leaves a remainder"),
        (["--dice", "1,1,2", "--remainder-dice", "3", "--morale-dice", "5,2,1"], "--morale-dice gives 3 dice"),
        (["--dice", "1,1,2", "--remainder-dice", "3", "--morale-dice", "5"], "--morale-dice gives 1 die, but the panic test"),
    ],
)  # fmt: skip
def test_dice_that_do_not_match_the_volley(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    dice: list[str],
    expected: str,
) -> None:
    """4.6, 1.5.1, 6.3 — the dice must be those the volley and its tests roll: exit 2, nothing written."""
    _play(tmp_path, monkeypatch)
    capsys.readouterr()
    argv = ["fire", "p06.toml", "--shooter", "au-battery", "--target", "fr-line-1", "--apply", "-o", "y.toml"]
    assert main([*argv, *dice]) == 2
    err = capsys.readouterr().err
    assert expected in err, err
    assert not (tmp_path / "y.toml").exists()


def test_roll_with_a_seed_is_repeatable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _play(tmp_path, monkeypatch)
    argv = [
        "fire",
        "p06.toml",
        "--shooter",
        "au-battery",
        "--target",
        "fr-line-1",
        "--apply",
        "--roll",
        "--seed",
        "7",
    ]
    assert main([*argv, "-o", "r1.toml"]) == 0
    assert main([*argv, "-o", "r2.toml"]) == 0
    assert (tmp_path / "r1.toml").read_bytes() == (tmp_path / "r2.toml").read_bytes()


def test_in_place_and_refusing_to_overwrite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in INPUTS:
        shutil.copy(CASES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    start = _sha(tmp_path / "start.toml")
    argv = ["move", "start.toml", "--unit", "fr-hussars", "--to", "hussars-advance.toml", "--apply"]
    assert main([*argv, "-o", "start.toml"]) == 2
    assert _sha(tmp_path / "start.toml") == start
    assert main([*argv]) == 2  # neither -o nor --in-place
    assert main([*argv, "--in-place"]) == 0
    assert load_scenario(tmp_path / "start.toml").unit("fr-hussars").bases[0].y == 50.0


if __name__ == "__main__" and "--record" in sys.argv:
    import tempfile

    class _Chdir:
        def chdir(self, path: Path) -> None:
            import os

            os.chdir(path)

    with tempfile.TemporaryDirectory() as tmp:
        codes = _play(Path(tmp), _Chdir())  # type: ignore[arg-type]
        assert codes == [0] * len(SCRIPT), codes
        shutil.copy(Path(tmp) / "game.jsonl", CASES / "game.jsonl")
    print(f"recorded {CASES / 'game.jsonl'}")


CHARGE_SCENARIO = """name = "charge"
[table]
width = 60.0
depth = 40.0

[[units]]
id = "hus"
side = "A"
profile = "france:hussars"
formation = { kind = "line", files = 2, x = 30.0, y = 12.0, facing = 90.0 }

[[units]]
id = "inf"
side = "B"
profile = "austria:line_infantry"
formation = { kind = "line", files = 4, ranks = 2, x = 30.0, y = 19.0, facing = 270.0 }
"""

CHARGE_MOVE = """unit = "hus"
[[bases]]
index = 0
x = 29.0
y = 17.0
facing = 90.0
[[bases]]
index = 1
x = 31.0
y = 17.0
facing = 90.0
"""


def test_charge_then_its_melee_2_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """2.3 V — a charge (move and melee) is one action: its melee may follow, a second may not;
    a unit given as a formation is written out as bases when it first changes."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.toml").write_text(CHARGE_SCENARIO, encoding="utf-8")
    (tmp_path / "charge.toml").write_text(CHARGE_MOVE, encoding="utf-8")
    argv = [
        "move",
        "c.toml",
        "--unit",
        "hus",
        "--to",
        "charge.toml",
        "--charge",
        "inf",
        "--apply",
        "-o",
        "c1.toml",
    ]
    assert main([*argv, "--log", "g.jsonl"]) == 0
    assert load_scenario(tmp_path / "c1.toml").unit("hus").acted is not None
    melee = ["melee", "c1.toml", "--attacker", "hus", "--defender", "inf", "--apply", "--roll", "--seed", "3"]
    assert main([*melee, "-o", "c2.toml", "--log", "g.jsonl"]) == 0
    after = load_scenario(tmp_path / "c2.toml")
    assert after.unit("hus").acted is not None and after.unit("hus").acted.value == "melee"
    again = ["melee", "c2.toml", "--attacker", "hus", "--defender", "inf", "--apply", "--roll", "--seed", "4"]
    assert after.unit("inf").state.value == "panic" and after.unit("inf").strength == 7  # seed 3
    assert main([*again, "-o", "c3.toml"]) == 1  # 2.3: one action a phase
    assert not (tmp_path / "c3.toml").exists()
    text = (tmp_path / "c1.toml").read_text(encoding="utf-8")
    assert "formation" not in text.split('id = "inf"')[0] and "bases = [" in text
    assert main(["replay", "g.jsonl", "-o", "r.toml"]) == 0
    assert (tmp_path / "r.toml").read_bytes() == (tmp_path / "c2.toml").read_bytes()


def test_two_units_fire_at_one_target_in_the_same_phase_4_8_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15: several units firing at one target in the same phase, one after another (2.3:
    each unit's action is finished before the next; 4.7, 4.8.1 after each volley). The second
    volley is asked on the position the first one left: its odds, its removal and its morale test
    are those of the target as it then stands. Dice by hand: fr-battery 1,5,6 on ≤2 scores 1,
    remainder 1/4 rolled 4 (no figure, 1.5.1), repulse test 2 ≤ 4 passed; fr-horse-battery 1,5
    scores 1, remainder rolled 1 (one more figure): the one-gun battery is destroyed (PD-18)."""
    shutil.copy(CASES / "start.toml", tmp_path / "s0.toml")
    monkeypatch.chdir(tmp_path)
    first = [
        "fire",
        "s0.toml",
        "--shooter",
        "fr-battery",
        "--target",
        "au-battery",
        "--apply",
        "-o",
        "s1.toml",
    ]
    first += ["--log", "game.jsonl", "--dice", "1,5,6", "--remainder-dice", "4", "--morale-dice", "2"]
    assert main(first) == 0
    assert load_scenario(tmp_path / "s1.toml").unit("au-battery").strength == 1  # damaged, not removed
    second = ["fire", "s1.toml", "--shooter", "fr-horse-battery", "--target", "au-battery", "--apply"]
    second += ["-o", "s2.toml", "--log", "game.jsonl", "--dice", "1,5", "--remainder-dice", "1"]
    assert main(second) == 0
    assert "au-battery" not in {u.id for u in load_scenario(tmp_path / "s2.toml").units}
    lines = [json.loads(x) for x in (tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x.get("action") for x in lines[1:]] == ["fire", "fire"]
    assert lines[2]["before"] == lines[1]["after"]  # the second volley on the first one's position
    capsys.readouterr()
    assert main(["replay", "game.jsonl", "-o", "again.toml"]) == 0
    assert (tmp_path / "again.toml").read_bytes() == (tmp_path / "s2.toml").read_bytes()
    # the same unit firing twice in one phase is refused (2.3: one action a phase), nothing written
    again = ["fire", "s1.toml", "--shooter", "fr-battery", "--target", "au-battery", "--apply"]
    assert main([*again, "-o", "s3.toml", "--dice", "1,1,1", "--remainder-dice", "1"]) == 1
    assert not (tmp_path / "s3.toml").exists()
