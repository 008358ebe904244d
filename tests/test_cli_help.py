"""Issue 21 — every command's and sub-command's ``--help`` as a newcomer reads it.

The parser tree is built from :func:`szwadron.cli.build_parser` and walked through every
sub-command (``odds fire``, ``points calibrate``, ...): each option and argument but ``-h`` has a
help line that says something beyond a rule number, and each ``--help`` prints its own options.
"""

from __future__ import annotations

import argparse
import re

import pytest

from szwadron.cli import build_parser, main
from szwadron.cli.points import ARMYLIST, MisplacedOption


def _commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every parser of the tree by its words after ``szwadron``: (), ("odds", "fire"), ..."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        found[path] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action._name_parser_map.items():
                    walk(sub, (*path, name))

    walk(build_parser(), ())
    return found


COMMANDS = _commands()


def _words(path: tuple[str, ...]) -> list[str]:
    """The command line of a parser; the army-list form of ``points`` is reached by a list id."""
    return ["france" if word == ARMYLIST else word for word in path]


def _label(action: argparse.Action) -> str:
    return "/".join(action.option_strings) or action.dest


def test_the_tree_has_every_command_and_sub_command() -> None:
    paths = {" ".join(p) for p in COMMANDS}
    for expected in ("check", "odds fire", "odds melee", "odds morale", "plot", "balance"):
        assert expected in paths
    assert {"points", f"points {ARMYLIST}", "points calibrate", "points validate"} <= paths


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(p) or "szwadron")
def test_every_option_has_help_text(path: tuple[str, ...]) -> None:
    """Each option (but -h) and argument has a help line a player can read: words, not only a
    rule number such as "7.7". An option kept out of ``--help`` must be one that only reports
    that it belongs to another form of ``points``."""
    missing = []
    for action in COMMANDS[path]._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.help == argparse.SUPPRESS:
            assert isinstance(action, MisplacedOption), f"{_label(action)} is hidden from --help"
            continue
        text = re.sub(r"\b(PD-\d+|\d+(\.\d+)*)\b", "", action.help or "")
        if len(re.findall(r"[A-Za-z]{2,}", text)) < 3:
            missing.append(f"{_label(action)}: {action.help!r}")
    assert not missing, f"szwadron {' '.join(path)}: options without a help line: {missing}"


@pytest.mark.parametrize("path", list(COMMANDS), ids=lambda p: " ".join(p) or "szwadron")
def test_every_help_prints_its_own_options(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """``szwadron ... --help`` exits 0 and lists every option of that (sub-)command, with no
    formatting slip (a literal ``%%``)."""
    with pytest.raises(SystemExit) as stop:
        main([*_words(path), "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: szwadron")
    assert "%%" not in out and "%(" not in out
    for action in COMMANDS[path]._actions:
        if action.help != argparse.SUPPRESS:
            for option in action.option_strings:
                assert option in out, f"{option} missing from 'szwadron {' '.join(path)} --help'"


def _help(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    with pytest.raises(SystemExit):
        main([*words, "--help"])
    return capsys.readouterr().out


def test_points_calibrate_and_validate_have_their_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``points calibrate --help`` and ``points validate --help`` show their own options, not the
    general ``points`` help (issue 21)."""
    general = _help(capsys, "points")
    calibrate = _help(capsys, "points", "calibrate")
    validate = _help(capsys, "points", "validate")
    army = _help(capsys, "points", "france")
    assert "calibrate" in general and "validate" in general and "--roster" not in general
    assert calibrate.startswith("usage: szwadron points calibrate")
    assert "--dry-run" in calibrate and "--rounds" in calibrate and "--roster" not in calibrate
    assert validate.startswith("usage: szwadron points validate")
    assert "--plot" in validate and "--rounds" not in validate and "--dry-run" not in validate
    assert "--roster" in army and "--duels" not in army
    assert len({general, calibrate, validate, army}) == 4


def test_the_slips_named_in_issue_21_are_gone(capsys: pytest.CaptureFixture[str]) -> None:
    """``move --march`` is the move of fire on the march; ``odds morale --morale`` and
    ``--first-strike`` say what they are; ``plot --help`` prints 15 %, not 15%%."""
    move = " ".join(_help(capsys, "move").split())
    assert "fire on the march: half the move" not in move
    assert "--march this is the move of fire on the march: at most half R" in move
    morale = " ".join(_help(capsys, "odds", "morale").split())
    assert "--morale M the unit's M" in morale
    melee = " ".join(_help(capsys, "odds", "melee").split())
    assert "--first-strike {attacker,defender} the side with the First Strike rule" in melee
    plot = " ".join(_help(capsys, "plot").split())
    assert "5 cm or 15%," in plot


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (
            [*_words(path), option, *([] if action.nargs == 0 else ["1"])],
            action.message,  # type: ignore[attr-defined]
        )
        for path, parser in COMMANDS.items()
        for action in parser._actions
        if isinstance(action, MisplacedOption)
        for option in action.option_strings
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_an_option_of_another_points_form_is_bad_input(
    words: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``points calibrate --roster X``, ``points france --duels 9``: exit 2, one line naming
    the form the option belongs to, before any work."""
    assert main(words) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == [f"szwadron points: error: {words[2]} {message}"]
    assert "points calibrate" in message or "points ARMYLIST" in message
