"""4.12.2-4.12.5 — declared fire at the table: ``fire --shooter U --declare --apply`` (the unit's
action: it declares that it will fire in the opponent's turn) and ``fire --shooter U --target T
--reaction declared --apply`` in the opponent's movement phase (the fire where the target stands:
at the end of the phase, 4.12.5, or after the move it interrupted). Worked by hand from the Polish
text: "Oddział może zamiast wykonywania akcji zadeklarować ostrzał w turze przeciwnika"."""

from __future__ import annotations

from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.errors import IllegalActionError
from szwadron.game.apply import apply_declare, apply_fire, apply_next_phase, position_from_text

LINE = '{ id = "inf", name = "Line", kind = "infantry", R = 12, W = 2, SW = 1, SO = 1, Z = 24, UW = 3, C = 3, M = 4 }'


def _table(enemy_y: float = 45.0, so: int = 1) -> str:
    """Side A's line (a) 15 cm from side B's (e) by default; round 1, side A's movement phase."""
    profile = LINE.replace("SO = 1", f"SO = {so}")
    return f"""name = "declared fire"

[table]
width = 100.0
depth = 100.0

[turn]
round = 1
side = "A"
phase = "movement"

[[units]]
id = "a"
side = "A"
profile = {profile}
bases = [ {{ x = 49.0, y = 30.0, facing = 90.0 }}, {{ x = 51.0, y = 30.0, facing = 90.0 }} ]

[[units]]
id = "e"
side = "B"
profile = {LINE}
bases = [ {{ x = 49.0, y = {enemy_y}, facing = 270.0 }}, {{ x = 51.0, y = {enemy_y}, facing = 270.0 }} ]
"""


def _declared(text: str) -> object:
    """a declares in its movement phase, then the game goes on to side B's movement phase."""
    pos = position_from_text(text, "t")
    pos = position_from_text(apply_declare(pos, "a").text, "declared")
    pos = position_from_text(apply_next_phase(pos).text, "B morale")
    return position_from_text(apply_next_phase(pos).text, "B movement")


def test_4_12_2_declaring_is_the_units_action() -> None:
    """4.12.2 — "zamiast wykonywania akcji": the declaration is the unit's action; it is kept
    through the end of its own movement phase."""
    applied = apply_declare(position_from_text(_table(), "t"), "a")
    nxt = position_from_text(applied.text, "next")
    a = nxt.scenario.unit("a")
    assert a.acted is not None and a.acted.value == "declare" and a.declared
    with pytest.raises(IllegalActionError) as err:  # one action a phase (2.3)
        apply_declare(nxt, "a")
    assert err.value.rule == "2.3"
    later = position_from_text(apply_next_phase(nxt).text, "B morale").scenario.unit("a")
    assert later.acted is None and later.declared


def test_4_12_5_the_declared_fire_goes_off_in_the_opponents_phase() -> None:
    """4.12.5 — in side B's movement phase a fires at e where it stands: the fire is rolled as any
    other (here 2 dice at C 3 at 15 cm), the declaration is spent, and a's own action stays taken
    by nothing (it is B's phase)."""
    pos = _declared(_table())
    applied = apply_fire(pos, "a", "e", seed=2059, declared=True)
    assert applied.inputs["declared"] is True and sum(len(g["faces"]) for g in applied.dice["volley"]) == 2
    a = position_from_text(applied.text, "fired").scenario.unit("a")
    assert not a.declared and a.acted is None
    with pytest.raises(IllegalActionError) as err:  # once only
        apply_fire(position_from_text(applied.text, "fired"), "a", "e", seed=1, declared=True)
    assert err.value.rule == "4.12.2"


def test_4_12_5_lost_at_the_end_of_the_opponents_movement_phase() -> None:
    """4.12.5 — not fired by the end of the opponent's movement phase, the declaration is lost."""
    pos = _declared(_table())
    after = position_from_text(apply_next_phase(pos).text, "A morale")
    assert not after.scenario.unit("a").declared


def test_4_12_3_not_in_its_own_turn_and_not_undeclared() -> None:
    """4.12.2, 4.12.3 — a declared fire goes off in the opponent's movement phase only, and a unit
    that did not declare has none to fire there."""
    declared_now = position_from_text(apply_declare(position_from_text(_table(), "t"), "a").text, "now")
    with pytest.raises(IllegalActionError) as err:
        apply_fire(declared_now, "a", "e", seed=1, declared=True)
    assert err.value.rule == "4.12.3"
    undeclared = position_from_text(_table().replace('side = "A"\nphase', 'side = "B"\nphase', 1), "b")
    with pytest.raises(IllegalActionError) as err:
        apply_fire(undeclared, "a", "e", seed=1, declared=True)
    assert err.value.rule == "4.12.2"


def test_4_12_4_out_of_range_the_fire_is_lost() -> None:
    """4.12.4 ("Traci ostrzał, jeżeli wróg jest poza zasięgiem"): e 40 cm away, beyond Z 24: no
    die is rolled and the declaration is spent."""
    pos = _declared(_table(enemy_y=72.0))
    applied = apply_fire(pos, "a", "e", seed=1, declared=True)
    assert applied.dice == {} and not position_from_text(applied.text, "x").scenario.unit("a").declared
    assert any("4.12.4" in n for n in applied.notes)


def test_4_1_a_unit_without_fire_declares_nothing() -> None:
    """4.1 — a unit with SO 0 has no fire to declare."""
    with pytest.raises(IllegalActionError) as err:
        apply_declare(position_from_text(_table(so=0), "t"), "a")
    assert err.value.rule == "4.1"


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--declare"], "--declare: only with --apply"),
        (["--declare", "--apply", "-o", "X", "--target", "e"], "--target does not go with --declare"),
        ([], "--target: name the enemy unit"),
    ],
)
def test_cli_declare_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], needle: str
) -> None:
    """Bad usage: one message, exit 2, nothing written."""
    scen = tmp_path / "t.toml"
    scen.write_text(_table(), encoding="utf-8")
    args = [str(tmp_path / "x.toml") if a == "X" else a for a in extra]
    assert main(["fire", str(scen), "--shooter", "a", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and not (tmp_path / "x.toml").exists()


def test_cli_declare_then_fire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole flow through the command line, logged and replayed."""
    scen, log = tmp_path / "t.toml", tmp_path / "g.jsonl"
    scen.write_text(_table(), encoding="utf-8")
    steps = [
        ["fire", str(scen), "--shooter", "a", "--declare", "--apply", "--in-place", "--log", str(log)],
        ["turn", str(scen), "--apply", "--in-place", "--log", str(log)],
        ["turn", str(scen), "--apply", "--in-place", "--log", str(log)],
        [
            *("fire", str(scen), "--shooter", "a", "--target", "e", "--reaction", "declared", "--apply"),
            *("--in-place", "--log", str(log), "--roll", "--seed", "2059"),
        ],
    ]
    for argv in steps:
        assert main(argv) == 0, capsys.readouterr().err
    assert "declared" not in scen.read_text(encoding="utf-8").split("[[units]]")[1]
    out = tmp_path / "replayed.toml"
    assert main(["replay", str(log), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == scen.read_text(encoding="utf-8")
