"""Charts of the odds (issue 8, ``szwadron odds ... --plot``).

- :func:`plot_distribution` — a distribution of counts as bars of P(= k) in percent, the
  P(≥ k) curve on a second y axis, the mean marked;
- :func:`plot_volley` — figures removed by a volley (4.6, 1.5.1);
- :func:`plot_morale_outcomes` — outcome bars of a morale test or of a fire's morale (6.3, 4.8);
- :func:`plot_flight_chances` — a panicking unit's flight distances and its chance to leave
  the table (6.6.2, 6.6.13);
- :func:`plot_joint_losses`, :func:`plot_melee_outcomes`, :func:`plot_melee` — a melee exchange:
  a heatmap of the joint losses beside the 5.5 outcome bars of both sides.

Each takes ``ax=None`` (a new pyplot figure) or the axes to draw on, and returns the artists it
added in a dict. Probabilities are drawn as floats in percent; the exact values stay with the
library. matplotlib is imported only inside the functions; nothing calls ``show()``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from szwadron.i18n import gettext, term
from szwadron.odds.morale import MeleeOutcome

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from szwadron.odds.combat import MeleeOdds, VolleyOdds
    from szwadron.table.morale_phase import UnitMorale

#: Colour of each morale outcome, the same in every chart (green stood … black destroyed).
OUTCOME_COLOURS: dict[str, str] = {
    "no_test": "#a0a0a0",
    "pass": "#2e8b57",
    "passed": "#2e8b57",
    "held": "#2e8b57",
    "engaged": "#7aa33a",
    "repulsed": "#e3a008",
    "panic": "#d62728",
    "pursuit": "#8e44ad",
    "destroyed": "#262626",
}

#: Bars of a distribution and its P(≥ k) curve.
BAR_COLOUR = "#7aa6dc"
CURVE_COLOUR = "#c0392b"
MEAN_COLOUR = "#1b2f5a"
#: The two sides of a melee (side A blue, side B red, as on the table).
ATTACKER_COLOUR = "#3f6fb5"
DEFENDER_COLOUR = "#c0392b"

Result = dict[str, Any]


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=(7.0, 4.2), layout="constrained")
    return new


def _pct(p: float) -> str:
    """A bar label: one decimal, '<0.1' for tiny non-zero values.

    >>> _pct(0.4567), _pct(0.0004), _pct(1.0)
    ('45.7', '<0.1', '100')
    """
    v = 100.0 * p
    if v >= 99.95:
        return "100"
    if 0 < v < 0.05:
        return "<0.1"
    return f"{v:.1f}"


def _percent_axis(ax: Axes, top_pct: float, headroom: float = 1.22) -> None:
    """A y axis in percent from 0 with room above the tallest bar for its label; no tick
    above 100%."""
    ax.set_ylim(0, top_pct * headroom + 0.5)
    ax.set_yticks([t for t in ax.get_yticks() if 0 <= t <= 100])
    ax.set_ylim(0, top_pct * headroom + 0.5)


def trim_pmf(pmf: Sequence[float | Fraction], min_p: float = 5e-5) -> list[float]:
    """The pmf as floats without the tail past the last k whose P(= k) or P(≥ k) is at least
    ``min_p`` (a tail too small to see); at least one entry.

    >>> trim_pmf([0.5, 0.49998, 0.00001, 0.00001])
    [0.5, 0.49998]
    """
    values = [float(p) for p in pmf]
    tails = [sum(values[k:]) for k in range(len(values))]
    last = max((k for k, t in enumerate(tails) if t >= min_p), default=0)
    return values[: last + 1]


# long: a drawing: bars, labels, axes, folded tails and the key, one after another.
def plot_distribution(
    pmf: Sequence[float | Fraction],
    ax: Axes | None = None,
    *,
    title: str | None = None,
    mean: float | None = None,
    at_least: bool = True,
    xlabel: str = "k",
    min_p: float = 5e-5,
    color: str = BAR_COLOUR,
) -> Result:
    """A distribution of counts: bars of P(= k) in percent, labelled when there are few; the
    P(≥ k) curve on a twin axis (``at_least``); the mean as a dashed line.

    Parameters
    ----------
    pmf:
        ``[P(0), P(1), ...]`` (floats or Fractions, summing to 1).
    ax:
        Axes to draw on, or ``None`` for a new figure.
    title, xlabel:
        Texts of the chart.
    mean:
        Where to mark the mean; default computed from ``pmf``.
    at_least:
        Draw the P(≥ k) curve.
    min_p:
        Drop the tail past the last k with P(≥ k) ≥ ``min_p`` (:func:`trim_pmf`).

    Returns
    -------
    dict
        ``bars`` (the :class:`~matplotlib.container.BarContainer`, one bar per k shown),
        ``values`` (bar labels), ``at_least`` (``[Line2D]`` or ``[]``), ``mean``
        (``[Line2D, Text]``), ``twin`` (the second axes or ``None``).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from szwadron.plots._io import new_figure
    >>> art = plot_distribution([0.25, 0.5, 0.25], new_figure(5, 3).add_subplot())
    >>> len(art["bars"]), art["mean"][0].get_xdata()[0]
    (3, 1.0)
    """
    ax = _axes(ax)
    values = trim_pmf(pmf, min_p)
    full = [float(p) for p in pmf]
    if mean is None:
        mean = sum(k * p for k, p in enumerate(full))
    ks = list(range(len(values)))
    bars = ax.bar(
        ks,
        [100.0 * v for v in values],
        width=0.75,
        color=color,
        edgecolor="#2c4f80",
        linewidth=0.6,
        label="P(= k)",
        zorder=2,
    )
    labels: list[Any] = []
    if len(values) <= 16:
        labels = list(
            ax.bar_label(
                bars, labels=[_pct(v) for v in values], fontsize=7, padding=2, color="#1f1f1f", zorder=6
            )
        )
        for t in labels:  # readable where the mean line passes
            t.set_bbox(
                {"boxstyle": "square,pad=0.1", "facecolor": "#ffffff", "edgecolor": "none", "alpha": 0.85}
            )
    top = max(values) * 100.0 if values else 1.0
    _percent_axis(ax, top)
    ax.set_xlim(-0.6, len(values) - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("P(= k), %", color="#2c4f80")
    step = max(1, (len(values) + 14) // 15)
    ax.set_xticks(ks[::step])
    ax.grid(True, axis="y", color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    result: Result = {"bars": bars, "values": labels, "at_least": [], "mean": [], "twin": None}
    if at_least:
        tails = [sum(full[k:]) for k in ks]
        twin = ax.twinx()
        (curve,) = twin.plot(
            ks,
            [100.0 * t for t in tails],
            color=CURVE_COLOUR,
            marker="o",
            markersize=3.5,
            linewidth=1.6,
            label="P(≥ k)",
            zorder=3,
        )
        twin.set_ylim(0, 116)  # room above 100% for the mean's label
        twin.set_yticks([0, 20, 40, 60, 80, 100])
        twin.set_ylabel("P(≥ k), %", color=CURVE_COLOUR)
        twin.tick_params(axis="y", colors=CURVE_COLOUR)
        result["at_least"] = [curve]
        result["twin"] = twin
    mline = ax.axvline(mean, color=MEAN_COLOUR, linestyle="--", linewidth=1.3, zorder=4)
    right = mean > 0.65 * (len(values) - 1)  # near the right edge: write it on the left
    mtext = ax.text(
        mean,
        1.0,
        gettext("mean {mean:.2f}").format(mean=mean) + " "
        if right
        else " " + gettext("mean {mean:.2f}").format(mean=mean),
        transform=ax.get_xaxis_transform(),
        ha="right" if right else "left",
        va="top",
        fontsize=8,
        color=MEAN_COLOUR,
        zorder=5,
        bbox={"boxstyle": "round,pad=0.15", "facecolor": "#ffffff", "edgecolor": "none", "alpha": 0.8},
    )
    result["mean"] = [mline, mtext]
    # no legend box to hide the bars: each y axis is labelled in its series' colour
    if title:
        ax.set_title(title, fontsize=10)
    return result


def volley_title(odds: VolleyOdds) -> str:
    """A one-line description of a volley: its dice, W, cap and remainder die."""
    dice = " + ".join(gettext("{n} d6 on ≤{c}").format(n=g.dice, c=g.accuracy) for g in odds.groups)
    w = f"W {odds.wounds}" if isinstance(odds.wounds, int) else "W " + ",".join(map(str, odds.wounds))
    cap = ", " + gettext("at most {n}").format(n=odds.cap) if odds.cap is not None else ""
    return gettext("Volley: {dice} against {wounds}{cap} (remainder {die})").format(
        dice=dice, wounds=w, cap=cap, die=term(odds.die)
    )


def plot_volley(
    odds: VolleyOdds, ax: Axes | None = None, *, title: str | None = None, damage: bool = False
) -> Result:
    """4.6, 1.5.1 — figures removed by a volley (or the damage points with ``damage``) as
    :func:`plot_distribution`, the exact mean marked; default title from :func:`volley_title`."""
    if damage:
        pmf, mean, xlabel = odds.damage_pmf, float(odds.damage.mean()), "damage points"
    else:
        pmf, mean, xlabel = odds.removed_pmf, odds.expected, "figures removed"
    return plot_distribution(
        pmf, ax, title=title if title is not None else volley_title(odds), mean=mean, xlabel=xlabel
    )


def _outcome_probs(outcomes: Any) -> dict[str, float]:
    if hasattr(outcomes, "to_json"):  # CasualtyTest
        return {str(k): float(v) for k, v in outcomes.to_json().items()}
    if hasattr(outcomes, "probabilities"):  # Distribution of outcomes
        return {str(getattr(k, "value", k)): float(v) for k, v in outcomes.probabilities().items()}
    return {str(getattr(k, "value", k)): float(v) for k, v in dict(outcomes).items()}


def plot_morale_outcomes(
    outcomes: Mapping[Any, float | Fraction] | Any,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    keep_zero: bool = False,
) -> Result:
    """6.3, 4.8 — morale outcomes as bars in percent, each in its outcome's colour
    (:data:`OUTCOME_COLOURS`), in the order given.

    ``outcomes`` is a mapping ``outcome → probability`` (names or enums), a
    :class:`~szwadron.odds.morale.CasualtyTest` or a distribution of outcomes. Outcomes of
    probability 0 are left out unless ``keep_zero``.

    Returns ``{"bars": BarContainer (one bar per outcome shown), "values": bar labels}``.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from szwadron.odds.morale import casualty_test
    >>> from szwadron.plots._io import new_figure
    >>> art = plot_morale_outcomes(casualty_test(4, 12, 12), new_figure(5, 3).add_subplot())
    >>> [round(float(b.get_height()), 2) for b in art["bars"]]
    [66.67, 22.22, 11.11]
    """
    ax = _axes(ax)
    probs = {k: v for k, v in _outcome_probs(outcomes).items() if keep_zero or v > 0}
    names = list(probs)
    bars = ax.bar(
        range(len(names)),
        [100.0 * probs[n] for n in names],
        width=0.65,
        color=[OUTCOME_COLOURS.get(n, "#7f7f7f") for n in names],
        edgecolor="#333333",
        linewidth=0.6,
        zorder=2,
    )
    labels = list(ax.bar_label(bars, labels=[_pct(probs[n]) + "%" for n in names], fontsize=8, padding=2))
    ax.set_xticks(range(len(names)), [term(n).replace("_", " ") for n in names])
    _percent_axis(ax, max([100.0 * p for p in probs.values()] + [1.0]))
    ax.set_ylabel("probability, %")
    ax.grid(True, axis="y", color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    if title:
        ax.set_title(title, fontsize=10)
    return {"bars": bars, "values": labels}


def _trimmed_joint(odds: MeleeOdds, min_p: float) -> list[list[float]]:
    table = odds.joint_pmf()
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    last_r = max((i for i in range(len(rows)) if sum(rows[i:]) >= min_p), default=0)
    last_c = max((j for j in range(len(cols)) if sum(cols[j:]) >= min_p), default=0)
    return [row[: last_c + 1] for row in table[: last_r + 1]]


# long: a drawing: heatmap, cell labels, marginals and axes.
def plot_joint_losses(
    odds: MeleeOdds,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    min_p: float = 5e-5,
    colorbar: bool = True,
) -> Result:
    """5.3, 5.4 — the joint losses of a melee exchange as a heatmap: attacker figures removed
    up, defender figures removed across, P in percent written in every cell of at least 0.1%
    (when the table is at most 16 × 16), the mean of each side's losses as a triangle on its axis.

    Returns ``{"image": AxesImage, "cells": [texts], "means": [two Line2D markers], "colorbar":
    [Colorbar] or []}``. The image array is the joint pmf in percent, rows = attacker removed,
    trimmed past the last row and column with a tail of at least ``min_p``.
    """
    import numpy as np

    ax = _axes(ax)
    table = np.asarray(_trimmed_joint(odds, min_p)) * 100.0
    image = ax.imshow(
        table,
        origin="lower",
        cmap="OrRd",
        aspect="auto",
        vmin=0.0,
        vmax=max(float(table.max()), 1e-9),
        interpolation="nearest",
    )
    cells: list[Any] = []
    n_rows, n_cols = table.shape
    if n_rows <= 16 and n_cols <= 16:
        hi = float(table.max())
        for i in range(n_rows):
            for j in range(n_cols):
                v = float(table[i, j])
                if v < 0.05:
                    continue
                cells.append(
                    ax.text(
                        j,
                        i,
                        f"{v:.1f}" if v < 99.95 else "100",
                        ha="center",
                        va="center",
                        fontsize=6.5 if max(n_rows, n_cols) > 9 else 8,
                        color="#ffffff" if v > 0.6 * hi else "#1f1f1f",
                    )
                )
    a_mean = float(odds.attacker_removed.mean())
    d_mean = float(odds.defender_removed.mean())
    # the means as triangles on the axes (lines across the table would strike through the
    # numbers in the cells)
    (x_mark,) = ax.plot(
        [d_mean],
        [0.0],
        marker="^",
        markersize=9,
        color=DEFENDER_COLOUR,
        markeredgecolor="#ffffff",
        transform=ax.get_xaxis_transform(),
        clip_on=False,
        zorder=5,
    )
    (y_mark,) = ax.plot(
        [0.0],
        [a_mean],
        marker=">",
        markersize=9,
        color=ATTACKER_COLOUR,
        markeredgecolor="#ffffff",
        transform=ax.get_yaxis_transform(),
        clip_on=False,
        zorder=5,
    )
    means = [x_mark, y_mark]
    ax.set_xticks(range(n_cols))
    ax.set_yticks(range(n_rows))
    ax.tick_params(labelsize=7)
    ax.set_xlabel(
        gettext("defender figures removed (mean {mean:.2f})").format(mean=d_mean), color=DEFENDER_COLOUR
    )
    ax.set_ylabel(
        gettext("attacker figures removed (mean {mean:.2f})").format(mean=a_mean), color=ATTACKER_COLOUR
    )
    cbar: list[Any] = []
    if colorbar:
        fig = ax.get_figure()
        assert fig is not None
        cb = fig.colorbar(image, ax=ax, shrink=0.85, pad=0.02)
        cb.set_label("P(both), %", fontsize=8)
        cb.ax.tick_params(labelsize=7)
        cbar.append(cb)
    ax.set_title(
        title
        if title is not None
        else gettext("Joint losses: {attackers} attacking v {defenders} defending figures").format(
            attackers=odds.attacker_figures, defenders=odds.defender_figures
        ),
        fontsize=10,
    )
    return {"image": image, "cells": cells, "means": means, "colorbar": cbar}


def melee_side_outcomes(odds: MeleeOdds) -> dict[str, tuple[float, float]]:
    """5.5 — each outcome's probability for the attacker and for the defender, in the order
    of :class:`~szwadron.odds.morale.MeleeOutcome`, outcomes neither side can reach left out."""

    att: dict[str, float] = {}
    dfd: dict[str, float] = {}
    for (a, d), p in odds.outcomes.probabilities().items():
        att[a.value] = att.get(a.value, 0.0) + float(p)
        dfd[d.value] = dfd.get(d.value, 0.0) + float(p)
    return {
        o.value: (att.get(o.value, 0.0), dfd.get(o.value, 0.0))
        for o in MeleeOutcome
        if att.get(o.value, 0.0) > 0 or dfd.get(o.value, 0.0) > 0
    }


def plot_melee_outcomes(odds: MeleeOdds, ax: Axes | None = None, *, title: str | None = None) -> Result:
    """5.5 — where each side ends after the morale sequence: for every outcome, a bar for the
    attacker (blue) and one for the defender (red), in percent.

    Returns ``{"attacker": BarContainer, "defender": BarContainer, "values": bar labels}``,
    one bar per outcome shown (:func:`melee_side_outcomes`).
    """
    ax = _axes(ax)
    table = melee_side_outcomes(odds)
    names = list(table)
    xs = list(range(len(names)))
    w = 0.38
    att = ax.bar(
        [x - w / 2 for x in xs],
        [100 * table[n][0] for n in names],
        width=w,
        color=ATTACKER_COLOUR,
        edgecolor="#1c3a6e",
        linewidth=0.5,
        label="attacker",
        zorder=2,
    )
    dfd = ax.bar(
        [x + w / 2 for x in xs],
        [100 * table[n][1] for n in names],
        width=w,
        color=DEFENDER_COLOUR,
        edgecolor="#6e1c14",
        linewidth=0.5,
        label="defender",
        zorder=2,
    )
    labels = [
        *ax.bar_label(att, labels=[_pct(table[n][0]) for n in names], fontsize=7, padding=1),
        *ax.bar_label(dfd, labels=[_pct(table[n][1]) for n in names], fontsize=7, padding=1),
    ]
    ax.set_xticks(xs, [term(n) for n in names])
    top = max([100 * max(v) for v in table.values()] + [1.0])
    _percent_axis(ax, top)
    ax.set_ylabel("probability, %")
    ax.grid(True, axis="y", color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(title if title is not None else "Morale outcomes (5.5)", fontsize=10)
    return {"attacker": att, "defender": dfd, "values": labels}


def plot_melee(odds: MeleeOdds, ax: tuple[Axes, Axes] | None = None, *, title: str | None = None) -> Result:
    """5.3–5.5 — a melee exchange: :func:`plot_joint_losses` beside
    :func:`plot_melee_outcomes`.

    ``ax`` is ``None`` (a new figure with two panels) or a pair ``(heatmap_axes,
    outcomes_axes)``. Returns the two results merged (keys ``image``, ``cells``, ``means``,
    ``colorbar``, ``attacker``, ``defender``, ``values``).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(12.0, 5.0), layout="constrained")
        left, right = fig.subplots(1, 2, width_ratios=[1.15, 1.0])
    else:
        left, right = ax
    out = plot_joint_losses(odds, left)
    out.update(plot_melee_outcomes(odds, right))
    if title:
        fig_ = left.get_figure()
        assert fig_ is not None
        fig_.suptitle(title, fontsize=11)
    return out


def plot_flight_chances(unit: UnitMorale, ax: Axes | None = None, *, title: str | None = None) -> Result:
    """6.6.2, 6.6.13 — a panicking unit's flight, should it not rally: the chance of each
    flight distance (2d6 × its multiplier, cm) as bars, those that take every figure off the
    table (beyond the edge distance of the figure farthest from it) dark, the others light;
    the farthest figure's edge distance as a dashed line. The bars are the chances should it
    flee; the title gives the chance to rally (6.8.4) and to leave the table (6.6.13) — the
    unit's exact numbers, as floats.

    Returns ``{"bars": BarContainer (one bar per distance), "edge": [Line2D]}``.
    """
    ax = _axes(ax)
    flight = unit.flight
    probs = {} if flight is None else {int(cm): float(p) for cm, p in flight.probabilities().items()}
    far = max((f.edge_cm for f in unit.figures), default=0.0)
    stops = [f.blocked_cm for f in unit.figures if f.blocked_cm is not None]
    xs = sorted(probs)
    width = 0.8 * max(unit.flight_multiplier, 1)
    off = [x > far + 1e-6 and not stops for x in xs]
    bars = ax.bar(
        xs,
        [100.0 * probs[x] for x in xs],
        width=width,
        color=[OUTCOME_COLOURS["destroyed"] if o else "#b59ad0" for o in off],
        edgecolor="#333333",
        linewidth=0.5,
        zorder=2,
    )
    edge = [ax.axvline(far, color=OUTCOME_COLOURS["panic"], linestyle="--", linewidth=1.3, zorder=3)]
    ax.text(
        far,
        1.0,
        " " + gettext("edge {cm:.1f} cm").format(cm=far),
        transform=ax.get_xaxis_transform(),
        ha="left",
        va="top",
        fontsize=7.5,
        color=OUTCOME_COLOURS["panic"],
    )
    _percent_axis(ax, max([100.0 * p for p in probs.values()] + [1.0]))
    ax.set_xlabel(gettext("flight distance, cm (2d6 × {k})").format(k=unit.flight_multiplier))
    ax.set_ylabel("probability if it flees, %")
    from matplotlib.patches import Patch

    ax.legend(
        [Patch(facecolor=OUTCOME_COLOURS["destroyed"]), Patch(facecolor="#b59ad0")],
        ["every figure off the table", "stays on the table"],
        fontsize=7.5,
        loc="upper right",
    )
    ax.grid(True, axis="y", color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    if xs:
        ax.set_xticks(xs)
        ax.tick_params(axis="x", labelsize=7)
    if title is None:
        title = (
            f"{unit.id} ({unit.state}): rallies {_pct(float(unit.reorganise_chance))}%, "
            f"leaves the table {_pct(float(unit.off_table_chance))}%"
        )
    ax.set_title(title, fontsize=9.5)
    return {"bars": bars, "edge": edge}


__all__ = [
    "OUTCOME_COLOURS",
    "melee_side_outcomes",
    "plot_distribution",
    "plot_flight_chances",
    "plot_joint_losses",
    "plot_melee",
    "plot_melee_outcomes",
    "plot_morale_outcomes",
    "plot_volley",
    "trim_pmf",
    "volley_title",
]
