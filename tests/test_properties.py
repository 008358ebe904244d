"""Issue 15: the consistency properties of ``tests/random_tables.py`` on a few hundred random legal
tables (scripts/properties.py runs 10,000 and more outside CI's time): no internal error, ``check``
and ``melee`` agree on engagement (5.1.2, PD-14), combined melee (5.10) answers on every engaged
cluster, a legal move ends in a position ``check`` accepts (1.3.3, 1.4.2), fire is unchanged by a
far unit (4.3) and every answer by mirroring the table."""

from __future__ import annotations

import random

import pytest
from random_tables import check_properties, random_table


def _tables(first_seed: int, count: int) -> list[int]:
    seeds: list[int] = []
    seed = first_seed
    while len(seeds) < count:
        if random_table(random.Random(seed)) is not None:
            seeds.append(seed)
        seed += 1
    return seeds


@pytest.mark.parametrize("block", range(10))
def test_properties_hold_on_random_tables(block: int) -> None:
    """20 tables a block, 200 in all, without the CLI."""
    for seed in _tables(100_000 + 1000 * block, 20):
        rng = random.Random(seed)
        data = random_table(rng)
        assert data is not None
        assert check_properties(data, rng, cli=False) == [], f"seed {seed}"


def test_properties_hold_through_the_cli() -> None:
    """A few tables through every command: never exit 3."""
    for seed in _tables(200_000, 8):
        rng = random.Random(seed)
        data = random_table(rng)
        assert data is not None
        assert check_properties(data, rng, cli=True) == [], f"seed {seed}"
