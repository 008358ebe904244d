"""Issue 14 (speed) — the random legal rosters are drawn from cached facts of their list and the
constraint checker keeps which profiles a constraint selects: the same rosters, draw for draw, as
the answers worked out afresh every time (the default calibration's model and points depend on
every one of these draws)."""

from __future__ import annotations

import random

import pytest

from szwadron.armies import rosters, search
from szwadron.armies.battles import priced, roster_points
from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.points import load_model
from szwadron.armies.rosters import validate_roster
from szwadron.armies.search import legal_pool, random_roster
from szwadron.models import ArmyList, Attachment, Kind, Profile, Roster, RosterConstraint, RosterEntry

ARMIES = {a.id: a for a in load_lists(army_list_paths())}


class _Afresh(search._Facts):
    """The facts worked out afresh at every question, as before the caches."""

    def size_bounds(self, profile: Profile) -> tuple[int, int]:
        return search.size_bounds(self.army, profile, *search.UNIT_FIGURES[search.profile_class(profile)])

    def selects(self, c: RosterConstraint) -> tuple[list[Profile], frozenset[str]]:
        return [p for p in self.fighting if c.selects(p)], frozenset(
            p.id for p in self.army.profiles if c.selects(p)
        )

    def plain_infantry(self, profile: Profile) -> bool:
        return profile.kind is Kind.INFANTRY and not profile.has("skirmish")

    def attachment(self, profile_id: str, figures: int) -> Attachment:
        return Attachment(profile=profile_id, figures=figures)

    def entry(self, profile: Profile, figures: int, attached: tuple[Attachment, ...] = ()) -> RosterEntry:
        limber = next((p for p in self.army.profiles if p.kind is Kind.LIMBER), None)
        if profile.move_limbered is not None and limber is not None:  # 7.2
            attached = (Attachment(profile=limber.id, figures=figures),)
        return RosterEntry(profile=profile.id, figures=figures, attached=attached)

    def cost(self, entry: RosterEntry) -> float:
        return roster_points(self.army, Roster(id="unit", units=(entry,)))


def _afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_facts", _Afresh)
    monkeypatch.setattr(
        rosters, "_selected", lambda c, profiles: frozenset(p.id for p in profiles if c.selects(p))
    )


def _draws(army: ArmyList, seed: str) -> list[Roster]:
    rng = random.Random(seed)
    out = [random_roster(army, limit, rng) for limit in (1000.0, 2000.0, 1000.0, 2000.0)]
    out += legal_pool(army, 2000.0, 3, rng)
    return out


@pytest.mark.parametrize("army", sorted(ARMIES))
def test_cached_draws_are_the_draws_worked_out_afresh(army: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random rosters (drawn, mended by ``_repair``, filled to the limit) at the stored points and
    at the model's, with the caches warm (twice) and with every answer worked out afresh: equal,
    roster by roster."""
    at_model = priced(ARMIES[army], load_model().points)
    cached = [_draws(a, f"cache:{army}") for a in (ARMIES[army], at_model)]
    again = [_draws(a, f"cache:{army}") for a in (ARMIES[army], at_model)]
    with monkeypatch.context() as m:
        _afresh(m)
        fresh = [_draws(a, f"cache:{army}") for a in (ARMIES[army], at_model)]
    assert cached == again == fresh


def test_a_new_copy_of_a_list_is_not_answered_from_another_lists_facts() -> None:
    """A list priced anew (the calibration prices the lists again every round) gets its own facts:
    its units cost its points, not those of the copy drawn from before."""
    france = ARMIES["france"]
    cheap = priced(france, lambda p: 1.0)
    dear = priced(france, lambda p: 2.0)
    line = cheap.profile("line_infantry")
    entry = search._entry(cheap, line, 10)
    assert search._unit_cost(cheap, entry) == pytest.approx(10.0)
    assert search._unit_cost(dear, search._entry(dear, dear.profile("line_infantry"), 10)) == pytest.approx(
        20.0
    )
    assert search._unit_cost(cheap, entry) == pytest.approx(10.0)


@pytest.mark.parametrize("army", sorted(ARMIES))
def test_the_checkers_kept_selections_are_the_constraints_own(army: str) -> None:
    """``_selected`` (kept per constraint and list) answers what ``RosterConstraint.selects`` does,
    for every constraint of the list and every profile; the example rosters' reports are the same
    with the kept answers as with fresh ones."""
    a = ARMIES[army]
    for c in a.constraints:
        assert rosters._selected(c, a.profiles) == {p.id for p in a.profiles if c.selects(p)}
    warm = [validate_roster(a, r) for r in a.rosters]
    rosters._SELECTED.clear()
    assert [validate_roster(a, r) for r in a.rosters] == warm
