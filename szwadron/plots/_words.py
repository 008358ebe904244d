"""The pictures' fixed words, marked for the catalog (issue 19).

The drawing code keeps its English words; :func:`szwadron.plots._io.translate_figure` replaces
every text of a figure whose whole string is a message id by its translation when the figure is
written. The fixed texts (keys, axis names, titles without numbers) are listed here so that the
catalog has them; texts with numbers are built with :func:`szwadron.i18n.gettext` where they are
drawn.

Ground-level: imports only :mod:`szwadron.i18n`.
"""

from __future__ import annotations

from szwadron.i18n import N_

PICTURE_WORDS: tuple[str, ...] = (
    # the table (szwadron.plots.table)
    N_("Key"),
    N_("x (cm)"),
    N_("y (cm)"),
    N_("rough ground"),
    N_("forest"),
    N_("obstacle (fence, stream)"),
    N_("high wall"),
    N_("building"),
    N_("fortification"),
    N_("impassable"),
    N_("artillery (line = barrel)"),
    N_("figure with its own profile (1.1)"),
    N_("panicking unit (6.1)"),
    N_("enemy contact (PD-14)"),
    N_("base in an enemy zone (1.4)"),
    # overlays (szwadron.plots.overlays)
    N_("front arc (4.4.1)"),
    N_("front arc (4.4.1), to range Z"),
    N_("side arcs (4.4.1)"),
    N_("back arc (4.4.1)"),
    N_("artillery: front arc only (4.4.3)"),
    N_("touched edge: no fire (4.4.2)"),
    N_("in sight: line, band (4.3, PD-7)"),
    N_("blocked sight; blocker in red"),
    N_("base that cannot fire"),
    N_("removal order (4.7)"),
    N_("removal order (5.4.3)"),
    N_("range limit, beyond it (4.5.1)"),
    N_("ruler: edge to edge (4.5.2)"),
    N_("touching (0 cm)"),
    N_("measured corner's path (PD-6)"),
    N_("path of the centre"),
    N_("final pose (ghost)"),
    N_("breaks a rule / too far"),
    N_("control zone entered (1.4.2)"),
    N_("path into contact"),
    N_("envelope of the move (R cm)"),
    N_("fights: in contact (5.3.2)"),
    N_("flight corridor (6.6)"),
    N_("flight stopped (6.6.10)"),
    N_("every figure off the table"),
    N_("stays on the table"),
    N_("legal charge"),
    N_("legal move"),
    N_("too far"),
    # charts (szwadron.plots.odds, szwadron.plots.points)
    N_("P(= k)"),
    N_("P(≥ k)"),
    N_("P(= k), %"),
    N_("P(≥ k), %"),
    N_("P(both), %"),
    N_("probability, %"),
    N_("probability if it flees, %"),
    N_("figures removed"),
    N_("Figures removed"),
    N_("damage points"),
    N_("Morale outcomes (5.5)"),
    N_("morale"),
    N_("attacker"),
    N_("defender"),
    N_("0 — limber: priced in its gun's speed (7.2)"),
    N_("row's win rate at equal points (%)"),
    # the morale machine (szwadron.plots.machine)
    N_("Morale as a state machine (section 6): numbered arrows, the transitions listed"),
)

__all__ = ["PICTURE_WORDS"]
