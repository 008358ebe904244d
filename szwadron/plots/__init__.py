"""Pictures: the table drawn to scale and charts of the odds (issue 8).

Every plot function follows one convention (shapely's ``plot_polygon`` style): it takes an
optional ``ax`` (a new figure is made when it is ``None``), draws, and returns the artists it
added; matplotlib is imported only when a plot function is called, and nothing here calls
``show()``. Modules:

- :mod:`szwadron.plots.table` — the table to scale: terrain, bases with facing marks, unit
  labels, control zones, contacts, grid, scale bar, legend (``szwadron plot``);
- :mod:`szwadron.plots.odds` — distributions as bars with the P(≥k) curve, melee joint losses as
  a heatmap, morale outcomes as bars (``szwadron odds ... --plot``);
- :mod:`szwadron.plots.points` — the points model: breakdowns and win-rate heatmaps (issue 7);
- :mod:`szwadron.plots._io` — figures for files: format from the suffix, atomic writes.

Importing this package imports neither matplotlib nor shapely.
"""

from __future__ import annotations

__all__: list[str] = []
