"""Issue 14 — one object for the battle's conditions (:class:`BattleConditions`).

The sampler, the share of units in cover (4.10.3), flight and rally (6.6, 6.8) and who meets
whom are carried as one frozen value from ``points validate`` through the validations, the
search and :func:`szwadron.armies.battles.play` down to :func:`run_army_battle`. Its defaults
are the calibration's, so every seeded answer stays what it was before the object existed
(tests/cases/targets/random_strongest_pin.json, the README snapshots).
"""

from __future__ import annotations

import pickle

import pytest

from szwadron.armies.battles import play, roster_force
from szwadron.armies.duel import (
    BATTLE_FLIGHT,
    CALIBRATION_CONDITIONS,
    DEFAULT_SAMPLER,
    BattleConditions,
    DuelUnit,
    Weapon,
    run_army_battle,
)
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import Kind

LINE = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
HUSSARS = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())


def test_the_defaults_are_the_calibrations() -> None:
    """Exact sampler, open ground, no flight, the dice pairing the units."""
    c = BattleConditions()
    assert c == CALIBRATION_CONDITIONS
    assert (c.sampler, c.cover, c.flight, c.pairing) == (DEFAULT_SAMPLER, 0.0, BATTLE_FLIGHT, "random")


def test_the_object_is_frozen_hashable_and_crosses_processes() -> None:
    """A task's argument: it pickles to an equal value, and nobody can change it on the way."""
    c = BattleConditions("dice", 0.25, True, "weakest")
    assert pickle.loads(pickle.dumps(c)) == c and hash(c) == hash(
        BattleConditions("dice", 0.25, True, "weakest")
    )
    with pytest.raises(AttributeError):
        c.cover = 0.5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "bad", "message"),
    [
        ("sampler", "per-die", "sampler must be 'exact' or 'dice'"),
        ("cover", 1.5, "share of units in cover must be a number from 0 to 1"),
        ("flight", 1, "flight must be true or false"),
        ("pairing", "nearest", "the pairing must be one of"),
    ],
)
def test_every_field_is_checked_when_made(field: str, bad: object, message: str) -> None:
    """A wrong value: one clear message (InvalidDataError) naming what was expected."""
    with pytest.raises(InvalidDataError, match=message):
        BattleConditions(**{field: bad})  # type: ignore[arg-type]


def test_the_battle_draws_cover_itself_as_the_batch_did() -> None:
    """Cover is drawn inside :func:`run_army_battle` from the dice ``f"{seed}:cover"``: the same
    battles as drawing it beforehand with :func:`szwadron.armies.duel.draw_cover`."""
    import random

    from szwadron.armies.duel import draw_cover

    a, b = [(LINE, 12), (HUSSARS, 6)], [(LINE, 12), (LINE, 8)]
    for k in range(20):
        dice = random.Random(f"c{k}:cover")
        ca, cb = draw_cover(a, 0.5, dice), draw_cover(b, 0.5, dice)
        assert run_army_battle(a, b, seed=f"c{k}", conditions=BattleConditions(cover=0.5)) == run_army_battle(
            ca, cb, seed=f"c{k}"
        )


def test_play_passes_the_conditions_to_every_battle() -> None:
    """``play`` under conditions gives, battle for battle, what ``run_army_battle`` gives under
    them (one process and a pool alike)."""
    army = load_army_list(bundled_dir("armylists") / "france.toml")
    force = roster_force(army, army.rosters[0])
    specs = [(0, 1, k % 2, f"cond:{k}") for k in range(6)]
    c = BattleConditions(cover=0.5, flight=True, pairing="dangerous")
    one = play([force, force], specs, workers=1, conditions=c)
    assert play([force, force], specs, workers=2, conditions=c) == one
    assert one != play([force, force], specs, workers=1)
