"""Table geometry on shapely: bases, terrain, contact and the spatial index of a battlefield.

Modules, grouped by what they answer (each importable on its own, each with ``__all__``):

- :mod:`szwadron.geometry.bases` — 1.2, PD-1: a base from its centre, facing and size; corners,
  named edges (front, right, back, left), outward normals, control-zone polygons (1.4.1);
  everything vectorised over arrays of bases.
- :mod:`szwadron.geometry.terrain` — 3.2, PD-11: terrain features as polygons (linear features
  buffered by half their width, flat caps), obstacle widths, levels, who may stand where.
- :mod:`szwadron.geometry.contact` — PD-3, PD-14: exact distances, penetration depth (separating
  axes), touching and contact length between rectangles, vectorised over pairs.
- :mod:`szwadron.geometry.battlefield` — a :class:`~szwadron.geometry.battlefield.Battlefield` built once from
  a scenario: arrays of bases, STR-trees over bases and terrain, pair queries, distances, levels.

Nothing here imports matplotlib. Touching, overlap and distance limits are decided by distances
(PD-3), never by shapely's ``touches``/``overlaps`` predicates.
"""

from __future__ import annotations

__all__: list[str] = []
