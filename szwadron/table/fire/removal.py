"""4.7.2–4.7.4, 4.10.8, PD-13 — the order in which the eligible target figures are removed:
nearest first, none hidden behind another figure of its unit, the least covered first, evenly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import contact_length, polygon_distance
from szwadron.geometry.sight import inset_corners, segment_crosses


def removal_order(
    bf: Battlefield,
    eligible: Sequence[int],
    firing: Sequence[int],
    cover_bonus: dict[int, int] | None = None,
    *,
    method: PairMethod = "index",
) -> list[int]:
    """4.7.2–4.7.4, 4.10.8, PD-13 — a suggested order in which the eligible target figures are
    removed (battlefield base indices).

    Repeatedly, among the figures not yet removed:

    1. 4.7.3 — keep those with no other remaining figure of their unit on the line of sight from
       the nearest firing base (if every one is hidden, keep all);
    2. 4.10.8 — keep those with the least cover;
    3. 4.7.2 — keep "the front": those at most half a base depth farther from the firing unit
       than the nearest of them (Decision: a rank, even seen obliquely, but not the rank behind);
    4. 4.7.4 — prefer the one touching the fewest figures removed already, edge to edge
       (evenly, not next to each other), then the nearest, then file order.

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "bases": [{"x": 15, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": inf, "bases": [
    ...         {"x": 10 + 2 * k, "y": 20 + 2 * r, "facing": 270} for r in range(2) for k in range(6)]}]})
    >>> bf = Battlefield(sc)
    >>> [bf.base_ids[b] for b in removal_order(bf, range(1, 13), [0])]
    ['b/2', 'b/4', 'b/0', 'b/5', 'b/3', 'b/1', 'b/8', 'b/10', 'b/6', 'b/11', 'b/9', 'b/7']
    """
    del method  # the candidate sets are small: every pair of target figures is tried
    left = [int(b) for b in eligible]
    shooters = np.asarray(list(firing), dtype=np.intp)
    cov = cover_bonus or {}
    if not left:
        return []
    st = bf.settings
    tol = st.contact_tolerance_cm + st.distance_epsilon_cm
    idx = np.asarray(left, dtype=np.intp)
    n = len(idx)
    d_fire = polygon_distance(bf.corners[idx][:, None], bf.corners[shooters][None, :])
    nearest = shooters[np.argmin(d_fire, axis=1)]
    dist = d_fire.min(axis=1)
    # hides[i, j]: j stands on the line of sight from i's nearest firing base to i (4.7.3)
    viewer = np.stack([bf.x[nearest], bf.y[nearest]], axis=-1)
    centre = np.stack([bf.x[idx], bf.y[idx]], axis=-1)
    inset = inset_corners(bf.corners[idx], st.overlap_tolerance_cm)
    hides = np.asarray(segment_crosses(viewer[:, None], centre[:, None], inset[None, :])).reshape(n, n)
    np.fill_diagonal(hides, False)
    # adjacent[i, j]: i and j touch along an edge (4.7.4)
    adjacent = (
        contact_length(bf.corners[idx][:, None], bf.corners[idx][None, :], tol) > st.distance_epsilon_cm
    )
    np.fill_diagonal(adjacent, False)
    covers = np.asarray([cov.get(b, 0) for b in left])
    depth = bf.depth[idx]
    remaining = np.ones(n, dtype=bool)
    removed = np.zeros(n, dtype=bool)
    order: list[int] = []
    for _ in range(n):
        visible = remaining & ~(hides & remaining[None, :]).any(axis=1)
        pool = visible if visible.any() else remaining.copy()
        least = covers[pool].min()
        pool &= covers == least
        front = dist[pool].min()
        pool &= dist <= front + depth / 2.0 + 1e-9
        touching = (adjacent & removed[None, :]).sum(axis=1)
        cand = np.flatnonzero(pool)
        pick = int(min(cand.tolist(), key=lambda i: (int(touching[i]), round(float(dist[i]), 9), left[i])))
        order.append(left[pick])
        remaining[pick] = False
        removed[pick] = True
    return order


__all__ = ["removal_order"]
