"""One ruling type (issue 13): every "no" the library gives — a base that cannot fire (4.x), a
move that breaks a rule (section 3), a set-up problem (1.3, 1.4, PD-3), an event the morale
machine refuses (section 6), a broken roster constraint — is a :class:`szwadron.Ruling`; results
serialise through ``to_json``; library errors name parameters, the CLI names its options."""

from __future__ import annotations

import pytest

from szwadron import (
    Breach,
    IllegalActionError,
    InvalidArgumentError,
    Problem,
    Reason,
    Refusal,
    Ruling,
    ToJson,
    Violation,
    audit,
    fire,
    load_scenario,
)
from szwadron.cli import error_text, main
from szwadron.loading import bundled_scenario
from szwadron.odds.machine import MACHINE


@pytest.mark.parametrize("kind", [Reason, Violation, Problem, Refusal, Breach])
def test_every_refusal_is_a_ruling(kind: type) -> None:
    assert issubclass(kind, Ruling)


def test_ruling_json_and_text() -> None:
    r = Ruling("1.4.2", "in the control zone of b", ("a/0", "a/1"))
    assert r.to_json() == {"rule": "1.4.2", "message": "in the control zone of b", "where": ["a/0", "a/1"]}
    assert Ruling("4.2", "not an enemy").to_json() == {"rule": "4.2", "message": "not an enemy"}
    assert str(r) == "[1.4.2] in the control zone of b"
    assert isinstance(r, ToJson)


def test_kinds_keep_their_json_keys() -> None:
    """The machine contract of each answer is unchanged: a move's violation names its base, a
    set-up problem its bases."""
    v = Violation("1.3.3", "apart", ("fr/2",))
    assert v.base == "fr/2" and v.to_json() == {"rule": "1.3.3", "message": "apart", "base": "fr/2"}
    assert Violation("4.11", "no melee").to_json()["base"] is None
    p = Problem("PD-3", "overlap", ("a/0", "b/1"))
    assert p.bases == ("a/0", "b/1") and p.to_json()["bases"] == ["a/0", "b/1"]


def test_machine_refusals_are_rulings_with_state_and_event() -> None:
    """Section 6 — the machine's refusals carry the state and the event beside the rule."""
    assert MACHINE.refusals
    for r in MACHINE.refusals:
        assert isinstance(r, Ruling) and r.rule and r.message
        assert r.state is not None and r.event is not None


def test_audit_problems_are_rulings() -> None:
    report = audit(load_scenario(bundled_scenario()))
    assert all(isinstance(p, Ruling) for p in report.problems)


def test_illegal_action_carries_its_ruling() -> None:
    """4.2 — firing at one's own unit is refused with its rule."""
    sc = load_scenario(bundled_scenario())
    with pytest.raises(IllegalActionError) as info:
        fire(sc, "fr-line-1", "fr-line-2")
    assert info.value.ruling == Ruling("4.2", info.value.detail)


def test_library_names_parameters_and_cli_names_options(capsys: pytest.CaptureFixture[str]) -> None:
    sc = load_scenario(bundled_scenario())
    with pytest.raises(InvalidArgumentError) as info:
        fire(sc, "fr-battery", "au-line-1", ammunition="grapeshot")
    assert info.value.parameter == "ammunition"
    assert "--" not in str(info.value)
    assert error_text(info.value).startswith("--ammo 'grapeshot' is not an ammunition")
    code = main(["fire", str(bundled_scenario()), "--shooter", "fr-line-1/0", "--target", "au-line-1"])
    assert code == 2
    assert "--shooter 'fr-line-1/0' is a base" in capsys.readouterr().err
