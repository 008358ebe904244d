"""A flight applied in the morale phase follows the way the morale phase plans (issue 15 with
issue 17): ``morale --apply`` and ``morale`` never contradict each other.

The known-answer position is ``tests/cases/morale/6_6_9_round_a_lone_enemy_base.toml`` (6.6.6,
6.6.7, 6.6.9, 6.6.10): a lone enemy base stands between a panicking figure and its own edge, 8 cm
from it, on an open table. The straight line runs into it; the flight first moves away from it
out of its fire range (16 cm north), then goes round that range to the edge, and the applied
position is where that way ends.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from szwadron.game.apply import apply_morale, position_from_text
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.loading import parse_scenario
from szwadron.table.audit import audit
from szwadron.table.morale_phase import morale_phase
from szwadron.table.pursuit import along

CASE = Path(__file__).parent / "cases" / "morale" / "6_6_9_round_a_lone_enemy_base.toml"


def _position_text() -> str:
    text = CASE.read_text(encoding="utf-8")
    return text[: text.index("[expected]")]


def test_6_6_9_applied_flight_goes_round_the_enemy_as_the_morale_phase_plans() -> None:
    text = _position_text()
    report = morale_phase(parse_scenario(tomllib.loads(text), source="case", folders=()), "A").unit("fleeing")
    figure = report.figures[0]
    assert figure.way, "the straight way is barred: the morale phase plans a way round (6.6.9)"
    assert not report.may_reorganise  # 6.8.2: the enemy is within 10 cm
    applied = apply_morale(position_from_text(text, "case"), "A", dice=[3, 3])  # 2K6 = 6
    after = parse_scenario(tomllib.loads(applied.text), source="next", folders=())
    distance = 6 * report.flight_multiplier
    base = after.unit("fleeing").bases[0]
    # where the planned way puts the figure's centre after the rolled distance, facing unchanged
    assert (base.x, base.y) == tuple(round(c, 6) for c in along(figure.way, distance, beyond=(0.0, -1.0)))
    assert base.facing == 90.0
    bf = Battlefield(after)
    a, e = bf.resolve("fleeing"), bf.resolve("enemy")
    gap = float(polygon_distance(bf.corners[a], bf.corners[e])[0])
    # 6.6.10: the way keeps out of the enemy's control zone (2 cm, to the planning grid's step)
    assert gap >= 2.0 - 1.0, gap
    assert not audit(bf).problems  # no overlap, nothing off the table (PD-3)
    # 6.6.6: 12 cm of a 16 cm way out of the enemy's range, straight away from it (north, away
    # from its own edge): 8 cm apart before, about 20 after (to the grid's step)
    assert base.y > 40.0 + 12.0 - 1.5, base.y
    assert gap >= 8.0 + 12.0 - 1.5, gap
    walked = sum(math.dist(p, q) for p, q in zip(figure.way, figure.way[1:], strict=False))
    assert walked >= distance or np.isclose(base.y, 40.0 - distance)


def test_a_free_way_is_still_straight() -> None:
    """6.6.7: with nothing in the way the figure flees straight to its edge (no way planned)."""
    text = _position_text().replace("y = 30.0, facing = 270.0", "y = 110.0, facing = 270.0")
    report = morale_phase(parse_scenario(tomllib.loads(text), source="case", folders=()), "A").unit("fleeing")
    assert report.figures[0].way == ()
    assert report.may_reorganise  # no enemy within 10 cm: it tries first (6.8.2) and fails on a 6
    applied = apply_morale(position_from_text(text, "case"), "A", dice=[6, 3, 3])
    base = parse_scenario(tomllib.loads(applied.text), source="next", folders=()).unit("fleeing").bases[0]
    assert (base.x, base.y) == (50.0, 40.0 - 6 * report.flight_multiplier)


FENCE = Path(__file__).parent / "cases" / "morale" / "3_2_3_fence_across_the_table.toml"


@pytest.mark.parametrize(("pips", "y"), [((1, 1), 16.25), ((2, 2), 16.0), ((3, 3), 12.0)])
def test_3_2_3_applied_flight_pays_for_the_fence(pips: tuple[int, int], y: float) -> None:
    """3.2.3, 6.6.8 with ``morale --apply``: the fence across the table (y 14.75..15.25) costs
    4 cm to cross, paid when the base reaches it after 3.75 cm (rear edge from 19 to 15.25).
    A flight of 4 cm cannot pay it: the figure stops at the fence (centre y 20 − 3.75). A flight
    of 8 pays it and goes 0.25 cm on (y 16). A flight of 12 goes 12 − 4 = 8 cm (y 12 — the
    base is past the fence, as 6.25 cm of its way are)."""
    text = FENCE.read_text(encoding="utf-8")
    text = text[: text.index("[expected]")]
    applied = apply_morale(position_from_text(text, "case"), "A", dice=[6, *pips])  # 6: no rally
    base = parse_scenario(tomllib.loads(applied.text), source="next", folders=()).unit("fleeing").bases[0]
    assert (base.x, base.y) == (50.0, pytest.approx(y, abs=1e-6))
