"""4.1.1, 4.3.4, 5.1.2, PD-14 — engagement as the fire check needs it: the enemy units a unit is
engaged with (an engaged unit may not fire, 4.1.1; nor fire at a charging unit, 4.12.6) and the
bases of a unit touching an enemy it is engaged with (an engaged target figure cannot be fired
at, 4.3.4). Both are decided as :func:`szwadron.table.audit.audit` decides them, for one unit,
and kept per battlefield.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import shapely

from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.table.audit import engaged_unit_pairs

_ENGAGEMENT_CACHE: weakref.WeakKeyDictionary[Battlefield, dict[tuple[int, str], Any]] = (
    weakref.WeakKeyDictionary()
)


def engaged_units(bf: Battlefield, unit_k: int, method: PairMethod) -> tuple[str, ...]:
    """4.1.1, 5.1.2 — enemy units the unit is engaged with (cached per battlefield)."""
    return _unit_engagement(bf, unit_k, method)[0]


def engaged_target_bases(bf: Battlefield, unit_k: int, method: PairMethod) -> dict[int, str]:
    """4.3.4 — the unit's bases touching (a positive length) a base of an enemy unit it is engaged
    with (5.1.2), each mapped to one such enemy base (cached per battlefield)."""
    return _unit_engagement(bf, unit_k, method)[1]


def _unit_engagement(
    bf: Battlefield, unit_k: int, method: PairMethod
) -> tuple[tuple[str, ...], dict[int, str]]:
    """5.1.2, PD-14 as :func:`szwadron.table.audit.audit` decides them, for one unit: its bases and the
    enemy bases that may touch them (the audit's pairs: found within the zone radius, kept by the
    exact distance), their contact lengths (the audit's and the melee's measure, across an
    obstacle too), the enemy units it is engaged with and its bases touching them along a
    positive length."""
    cache = _ENGAGEMENT_CACHE.setdefault(bf, {})
    key = (unit_k, method)
    if key in cache:
        return cache[key]  # type: ignore[no-any-return]
    st = bf.settings
    eps = st.distance_epsilon_cm
    i, j, d = _enemy_pairs_in_contact(bf, unit_k, method)
    lengths = bf.contact_lengths(i, j, d, method=method).tolist()
    engaged = engaged_unit_pairs(
        bf.unit_of[i].tolist(), bf.unit_of[j].tolist(), lengths, st, i.tolist(), j.tolist()
    )
    others = sorted(v for pair in engaged for v in pair if v != unit_k)
    partners = tuple(bf.unit_ids[v] for v in others)
    partner_set = set(others)
    touching: dict[int, str] = {}
    for a, c, length in zip(i.tolist(), j.tolist(), lengths, strict=True):
        if length <= eps:
            continue
        for mine, other in ((a, c), (c, a)):
            if bf.unit_of[mine] == unit_k and int(bf.unit_of[other]) in partner_set:
                touching.setdefault(mine, bf.base_ids[other])
    cache[key] = (partners, touching)
    return partners, touching


def _enemy_pairs_in_contact(
    bf: Battlefield, unit_k: int, method: PairMethod
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PD-3, PD-4, 5.1.2 — the pairs ``(i, j)``, ``i < j`` in the audit's order, of a base of the
    unit and an enemy base that may be in contact (within the contact tolerance, or across an
    obstacle: :attr:`~szwadron.geometry.battlefield.Battlefield.contact_reach_cm`; found within
    the zone radius, kept by the exact distance), with their distances."""
    st = bf.settings
    eps = st.distance_epsilon_cm
    tol = st.contact_tolerance_cm
    members = bf.unit_bases(unit_k)
    reach = max(st.control_zone_cm + eps, tol + eps, bf.contact_reach_cm)
    if method == "brute":
        d_all = shapely.distance(bf.polygons[members][:, None], bf.polygons[None, :])
        q, o = np.nonzero(d_all <= reach)
    else:
        q, o = bf.tree.query(bf.polygons[members], predicate="dwithin", distance=reach)
    b, o = members[q], o.astype(np.intp)
    enemy = bf.side[o] != bf.side[b]
    i, j = np.minimum(b, o)[enemy], np.maximum(b, o)[enemy]  # pairs i < j, as the audit has them
    order = np.lexsort((j, i))
    i, j = i[order], j[order]
    d = bf.distances(i, j)
    near = d <= bf.contact_reach_cm
    return i[near], j[near], d[near]


__all__ = ["engaged_target_bases", "engaged_units"]
