"""4.4, PD-8 — arcs of fire per base edge, and edges blocked by touching own bases.

Every edge of a base has an arc (4.4.1): the wedge between the two rays from the base centre
through the corners of that edge. The four arcs of a base cover the whole table; a point on a
boundary ray lies in both arcs that share it (PD-8: boundary rays included). A 2 × 2 base has four
arcs of 90°; a 2 × 4 cavalry base (PD-1: 2 cm front) has front and back arcs of 53.13° and side
arcs of 126.87°.

An edge touched by another own base, of the same unit or not, cannot be fired through (4.4.2);
artillery fires through its front edge only (4.4.3, 7.1.1).

Everything is vectorised over arrays of bases and points (corner arrays as
:func:`szwadron.geometry.bases.base_corners` gives them: front-left, front-right, back-right,
back-left; edges front, right, back, left).

>>> from szwadron.geometry.bases import base_corners
>>> [round(a, 2) for a in arc_angles(2.0, 4.0)]          # cavalry: front, right, back, left
[53.13, 126.87, 53.13, 126.87]
>>> c = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)           # infantry facing side B (+y)
>>> in_arcs(c, [[0.0, 10.0], [10.0, 10.0], [-3.0, -1.0]]).tolist()
[[True, False, False, False], [True, True, False, False], [False, False, False, True]]
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from szwadron.geometry.bases import EDGE_NAMES

# contact along an edge is measured as PD-14 measures it, by the shared helpers of contact.py
from szwadron.geometry.contact import CONTACT_TOLERANCE_CM, DISTANCE_EPSILON_CM, _axes, _edge_within_slab
from szwadron.models import Kind

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Relative tolerance of the side-of-ray test: a point this close (relative to the distances
#: involved) to a boundary ray counts as on it (PD-8: boundary rays included).
ARC_RELATIVE_EPSILON = 1e-9

#: Index of the front edge in :data:`~szwadron.geometry.bases.EDGE_NAMES`.
FRONT = EDGE_NAMES.index("front")


def arc_angles(width: float, depth: float) -> tuple[float, float, float, float]:
    """4.4.1 — the angles (degrees) of the front, right, back and left arcs of a base.

    >>> arc_angles(2.0, 2.0)
    (90.0, 90.0, 90.0, 90.0)
    """
    front = math.degrees(2.0 * math.atan2(width / 2.0, depth / 2.0))
    side = 180.0 - front
    return (front, side, front, side)


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    out: FloatArray = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def in_arcs(corners: npt.ArrayLike, points: npt.ArrayLike) -> BoolArray:
    """4.4.1, PD-8 — which edge arcs of each base contain each point (boundary rays included).

    Parameters
    ----------
    corners:
        Base corners, ``(..., 4, 2)``, in the ring order of
        :func:`~szwadron.geometry.bases.base_corners`.
    points:
        Points, ``(..., 2)``; broadcast against ``corners[..., 0, :]``.

    Returns
    -------
    numpy.ndarray
        Booleans ``broadcast(...) + (4,)`` in :data:`~szwadron.geometry.bases.EDGE_NAMES` order.
        A point on a boundary ray is in both arcs sharing it; the centre itself is in all four.

    Examples
    --------
    >>> from szwadron.geometry.bases import base_corners
    >>> cav = base_corners(0.0, 0.0, 0.0, 2.0, 4.0)          # cavalry facing +x, 2 cm front
    >>> in_arcs(cav, [[10.0, 4.0], [10.0, 6.0]]).tolist()    # 21.8° and 31.0° off the facing
    [[True, False, False, False], [False, False, False, True]]
    """
    c = np.asarray(corners, dtype=float)
    p = np.asarray(points, dtype=float)
    centre = c.mean(axis=-2)  # (..., 2)
    w = p - centre  # (..., 2)
    u = c - centre[..., None, :]  # (..., 4, 2): corner k starts edge k
    v = np.roll(u, -1, axis=-2)  # corner k + 1 ends it
    wk = w[..., None, :]
    scale = np.linalg.norm(u, axis=-1) * np.linalg.norm(wk, axis=-1)
    eps = ARC_RELATIVE_EPSILON * scale
    # the ring is clockwise: w lies in the wedge from u clockwise to v
    out: BoolArray = (_cross(u, wk) <= eps) & (_cross(wk, v) <= eps)
    return out


def arc_of(corners: npt.ArrayLike, point: npt.ArrayLike) -> tuple[str, ...]:
    """4.4.1, PD-8 — names of the edges whose arcs contain ``point`` (two on a boundary ray).

    >>> from szwadron.geometry.bases import base_corners
    >>> arc_of(base_corners(0.0, 0.0, 90.0, 2.0, 2.0), (5.0, 5.0))   # on the front-right ray
    ('front', 'right')
    """
    mask = in_arcs(corners, point)
    return tuple(EDGE_NAMES[k] for k in np.flatnonzero(mask))


def edge_contact_lengths(
    corners_a: npt.ArrayLike,
    corners_b: npt.ArrayLike,
    contact_tolerance_cm: float = CONTACT_TOLERANCE_CM,
) -> FloatArray:
    """4.4.2, PD-3 — length along which each edge of base A is touched by base B.

    The same measure as :func:`szwadron.geometry.contact.contact_length` (edges facing each
    other, each within the tolerance of the other's line and opposite it, the shorter of the two
    ways), kept per edge of A instead of the largest over all edges. Bases meeting corner to
    corner touch no edge.

    Returns ``broadcast(...) + (4,)`` in :data:`~szwadron.geometry.bases.EDGE_NAMES` order.

    >>> from szwadron.geometry.bases import base_corners
    >>> a = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)
    >>> edge_contact_lengths(a, base_corners(2.0, 0.0, 90.0, 2.0, 2.0)).round(9).tolist()
    [0.0, 2.0, 0.0, 0.0]
    >>> edge_contact_lengths(a, base_corners(2.0, 2.0, 90.0, 2.0, 2.0)).tolist()  # corner only
    [0.0, 0.0, 0.0, 0.0]
    """

    a = np.asarray(corners_a, dtype=float)
    b = np.asarray(corners_b, dtype=float)
    a0, a1 = a, np.roll(a, -1, axis=-2)
    b0, b1 = b, np.roll(b, -1, axis=-2)
    ea0, ea1 = a0[..., :, None, :], a1[..., :, None, :]
    eb0, eb1 = b0[..., None, :, :], b1[..., None, :, :]
    l_ab = _edge_within_slab(ea0, ea1, eb0, eb1, contact_tolerance_cm)  # (..., 4, kb)
    l_ba = _edge_within_slab(eb0, eb1, ea0, ea1, contact_tolerance_cm)
    facing = np.einsum("...ij,...kj->...ik", _axes(a), _axes(b)) < -1e-9
    out: FloatArray = np.where(facing, np.minimum(l_ab, l_ba), 0.0).max(axis=-1)
    return out


def fire_edges(kind: Kind | str) -> tuple[str, ...]:
    """4.4.3, 7.1.1 — the edges a figure of this kind may fire through.

    Artillery fires through its front edge only; other figures through any edge (4.4.1). Limbers
    (7.2) carry no guns and fire through none.

    >>> fire_edges("foot_artillery"), fire_edges("limber")
    (('front',), ())
    """
    k = Kind(kind)
    if k.is_artillery:
        return ("front",)
    if k is Kind.LIMBER:
        return ()
    return EDGE_NAMES


def touched_edges(
    corners: npt.ArrayLike,
    others: npt.ArrayLike,
    contact_tolerance_cm: float = CONTACT_TOLERANCE_CM,
    epsilon_cm: float = DISTANCE_EPSILON_CM,
) -> BoolArray:
    """4.4.2 — which edges of one base are touched by any of ``others`` (own bases).

    An edge is touched when some own base touches it (PD-3) along a positive length
    (:func:`edge_contact_lengths` above the numerical epsilon). Decision: bases meeting it only
    corner to corner — the diagonal neighbour in a block — do not touch an edge.

    >>> from szwadron.geometry.bases import base_corners
    >>> me = base_corners(2.0, 0.0, 90.0, 2.0, 2.0)           # middle of a line of three
    >>> touched_edges(me, base_corners([0.0, 4.0], 0.0, 90.0, 2.0, 2.0)).tolist()
    [False, True, False, True]
    """
    c = np.asarray(corners, dtype=float)
    o = np.asarray(others, dtype=float).reshape(-1, 4, 2)
    if o.shape[0] == 0:
        return np.zeros(4, dtype=bool)
    lengths = edge_contact_lengths(c[None], o, contact_tolerance_cm + epsilon_cm)
    return np.asarray((lengths > epsilon_cm).any(axis=0), dtype=bool)


__all__ = [
    "ARC_RELATIVE_EPSILON",
    "FRONT",
    "arc_angles",
    "arc_of",
    "edge_contact_lengths",
    "fire_edges",
    "in_arcs",
    "touched_edges",
]
