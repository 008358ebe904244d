"""Charts of the points model (issue 7): the breakdown of points as bars, the round-robin of win
rates at equal points as a heatmap, and the held-out rosters' pairs as a histogram (issue 14).

Plot functions take an optional ``ax`` (a new Agg figure when ``None``), draw and return the
artists they added; ``*_file`` functions draw on a new figure and write it atomically
(:func:`szwadron.plots._io.save_figure`). matplotlib is imported only inside the functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from szwadron.armies.runs import BAND
from szwadron.i18n import gettext, term
from szwadron.plots._io import figure_format, new_figure, save_figure, use_agg

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from szwadron.armies.battles import RosterValidation
    from szwadron.armies.calibrate import Validation
    from szwadron.armies.points import PointsBreakdown
    from szwadron.armies.search import HeldOutValidation

#: Colours of the breakdown's terms (Paul Tol's colour-blind safe palettes).
TERM_COLOURS: dict[str, str] = {
    "base": "#bbbbbb",
    "offence": "#0077bb",
    "wounds": "#ee7733",
    "morale": "#009988",
    "speed": "#33bbee",
    "cavalry": "#cc3311",
    "artillery": "#882255",
    "skirmish": "#ee3377",
    "first_strike_charge": "#ddcc77",
    "first_strike_defence": "#999933",
    "auto_disengage": "#44aa99",
    "heavy": "#332288",
    "indirect": "#aa4499",
    "measured": "#777777",
}


def _colour(term: str) -> str:
    return TERM_COLOURS.get(term, "#000000")


# long: a drawing: bars per profile and factor, labels, axes and the key.
def plot_breakdown(
    breakdowns: Sequence[PointsBreakdown], ax: Axes | None = None, *, title: str = ""
) -> list[Any]:
    """Horizontal bars, one per profile, of the formula's factors on a log scale: the points
    are the reference figure's times a product of factors (:mod:`szwadron.armies.points`), so each
    term is drawn as its factor — to the right of ×1 when it raises the points, to the left
    (hatched) when it lowers them — and the bars add up, in log scale, to the profile's points
    over the reference's (a black diamond, with the points written at the end of the bar). A
    gun's large offence and its artillery factor, and a militia's small ones, stay readable
    side by side.

    Returns the artists added.
    """
    import math
    import textwrap

    from matplotlib.patches import Patch

    if ax is None:
        fig = new_figure(9, 0.45 * max(len(breakdowns), 3) + 1.6)
        ax = fig.add_subplot()
    artists: list[Any] = []
    labels = []
    seen: list[str] = []
    reach = math.log2(2.0)
    for y, b in enumerate(breakdowns):
        labels.append(f"{b.profile} ({term(b.kind.value)})")
        if not b.terms:
            artists.append(
                ax.text(0.05, y, "0 — limber: priced in its gun's speed (7.2)", va="center", fontsize=8)
            )
            continue
        right = left = 0.0
        for t in b.terms:
            step = math.log2(t.factor)
            if abs(step) < 1e-9:
                continue
            if step > 0:
                artists += ax.barh(
                    y, step, left=right, height=0.6, color=_colour(t.name), edgecolor="white", linewidth=0.5
                )
                right += step
            else:
                artists += ax.barh(
                    y,
                    step,
                    left=left,
                    height=0.6,
                    color=_colour(t.name),
                    hatch="///",
                    edgecolor="white",
                    linewidth=0.5,
                )
                left += step
            if t.name not in seen:
                seen.append(t.name)
        net = math.log2(b.raw / b.base)
        reach = max(reach, right, -left)
        artists += ax.plot([net], [y], marker="D", color="black", markersize=4, linestyle="none")
        artists.append(
            ax.text(
                right + 0.08, y, gettext("{points:g} pts").format(points=b.points), va="center", fontsize=8
            )
        )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(breakdowns)), labels, fontsize=8)
    ax.set_ylim(len(breakdowns) - 0.5, -0.5)  # top row first; a barless row (a limber) keeps its room
    span = math.ceil(reach + 0.6)
    ticks = list(range(-span, span + 1))
    ax.set_xticks(ticks, [f"×{2**k}" if k >= 0 else f"×1/{2**-k}" for k in ticks], fontsize=8)
    ax.set_xlim(-span, span)
    ref = breakdowns[0].base if breakdowns else 0.0
    ax.set_xlabel(
        textwrap.fill(
            gettext(
                "factor on the reference figure's {points:g} points (log scale); lowering terms hatched; ◆ the product"
            ).format(points=ref),
            90,
        )
    )
    if title:
        ax.set_title(title)
    order = ["offence", "wounds", "morale", "speed"]
    names = [n for n in order if n in seen] + [n for n in seen if n not in order]
    handles = [Patch(color=_colour(n), label=term(n)) for n in names]
    artists.append(ax.legend(handles=handles, fontsize=7, loc="lower left"))
    ax.grid(axis="x", alpha=0.3)
    return artists


def plot_matrix(validation: Validation, ax: Axes | None = None, *, title: str | None = None) -> list[Any]:
    """The round-robin as a heatmap: row profile's win rate against the column profile at equal
    points, 0–100 % on a diverging scale centred on 50 %; cells outside 50 ± 5 % are marked with
    a dot. Returns the artists added."""
    import numpy as np

    n = len(validation.entries)
    if ax is None:
        size = max(6.0, 0.32 * n + 3)
        fig = new_figure(size + 1.5, size)
        ax = fig.add_subplot()
    m = np.array(validation.matrix())
    image = ax.imshow(m * 100, cmap="RdBu_r", vmin=0, vmax=100)
    artists: list[Any] = [image]
    cbar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.02)
    cbar.set_label("row's win rate at equal points (%)")
    artists.append(cbar)
    outside = [(i, j) for i in range(n) for j in range(n) if i != j and not (BAND[0] <= m[i, j] <= BAND[1])]
    if outside:
        ys, xs = zip(*outside, strict=True)
        artists.append(ax.scatter(xs, ys, s=3, c="black", marker="."))
    labels = [f"{e.label} ({p:g})" for e, p in zip(validation.entries, validation.points, strict=True)]
    ax.set_xticks(range(n), labels, rotation=90, fontsize=6)
    ax.set_yticks(range(n), labels, fontsize=6)
    share = validation.share_in_band
    ax.set_title(
        title
        or gettext(
            "Win rates at equal points: {share} of matchups within {lo}–{hi} (dots: outside)\n"
            "{duels} simulated duels, seed {seed}"
        ).format(
            share=f"{share:.0%}",
            lo=f"{BAND[0]:.0%}",
            hi=f"{BAND[1]:.0%}",
            duels=validation.duels,
            seed=validation.seed,
        ),
        fontsize=9,
    )
    return artists


def plot_breakdown_file(
    breakdowns: Sequence[PointsBreakdown], path: str | Path, *, title: str = "", inputs: Sequence[Path] = ()
) -> Path:
    """Draw :func:`plot_breakdown` on a new figure and write it to ``path`` atomically."""

    figure_format(path)  # a bad suffix fails before drawing
    use_agg()
    fig = new_figure(9, 0.45 * max(len(breakdowns), 3) + 1.6)
    plot_breakdown(breakdowns, fig.add_subplot(), title=title)
    return save_figure(fig, path, inputs=inputs)


def plot_roster_matrix(
    rosters: RosterValidation, ax: Axes | None = None, *, title: str | None = None
) -> list[Any]:
    """Army against army: each example roster's win rate against every roster of another list
    with the same points limit (:func:`szwadron.armies.battles.validate_rosters`), on the same
    diverging scale as :func:`plot_matrix`, with the percentage written in each cell (bold
    outside 50 ± 5 %); pairs not played are blank. Returns the artists added."""
    import numpy as np

    n = len(rosters.sides)
    if ax is None:
        fig = new_figure(7, 6)
        ax = fig.add_subplot()
    # rosters of one limit together (the pairs played), then by list
    order = sorted(range(n), key=lambda k: (rosters.sides[k].points_limit or 0.0, rosters.sides[k].army))
    place = {k: i for i, k in enumerate(order)}
    m = np.full((n, n), np.nan)
    for c in rosters.cells:
        m[place[c.a], place[c.b]] = c.rate
        m[place[c.b], place[c.a]] = 1 - c.rate
    image = ax.imshow(np.ma.masked_invalid(m * 100), cmap="RdBu_r", vmin=0, vmax=100)
    artists: list[Any] = [image]
    for i in range(n):
        for j in range(n):
            if not np.isnan(m[i, j]):
                inside = BAND[0] <= m[i, j] <= BAND[1]
                artists.append(
                    ax.text(
                        j,
                        i,
                        f"{m[i, j] * 100:.0f}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        fontweight="normal" if inside else "bold",
                    )
                )
    labels = [f"{rosters.sides[k].label} ({rosters.sides[k].points:g})" for k in order]
    ax.set_xticks(range(n), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(n), labels, fontsize=7)
    ax.set_title(
        title
        or gettext(
            "Army against army: {share} of roster pairs within {lo}–{hi} (bold: outside)\n"
            "{battles} simulated battles, seed {seed}; row's win rate (%)"
        ).format(
            share=f"{rosters.share_in_band:.0%}",
            lo=f"{BAND[0]:.0%}",
            hi=f"{BAND[1]:.0%}",
            battles=rosters.battles,
            seed=rosters.seed,
        ),
        fontsize=9,
    )
    return artists


def plot_held_out(held: HeldOutValidation, ax: Axes | None = None, *, title: str | None = None) -> list[Any]:
    """Rosters nobody fitted the points to (issue 14, :func:`szwadron.armies.search.held_out_validation`):
    the win rates of every pair with a held-out roster in it as a histogram, the bars inside
    50 ± 5 % in one colour and outside in another over the shaded band, and each held-out
    roster's rate against its whole field as a tick along the bottom; the title gives the share in
    the band, measured and, where the battles a pair allow it, with the dice taken out
    (:attr:`~szwadron.armies.search.HeldOutValidation.share_without_dice`). Returns the artists added."""
    import numpy as np

    if ax is None:
        fig = new_figure(9, 3.5)
        ax = fig.add_subplot()
    rates = np.array([r for _, _, r in held.pairs]) * 100
    low, high = BAND[0] * 100, BAND[1] * 100
    bins = [2.5 * k for k in range(41)]
    artists: list[Any] = [ax.axvspan(low, high, color="#dddddd", zorder=0)]
    inside = rates[(rates >= low) & (rates <= high)]
    outside = rates[(rates < low) | (rates > high)]
    if len(inside):  # the band's own bins, the last closed: a pair at exactly 55 % is drawn inside
        in_bins = [low, *[b for b in bins if low < b < high], high]
        artists.append(
            ax.hist(inside, bins=in_bins, color="#0077bb", label=gettext("pairs within 50 ± 5 %"))[2]
        )
    if len(outside):
        artists.append(ax.hist(outside, bins=bins, color="#cc3311", label=gettext("pairs outside"))[2])
    field = [100 * r.field_rate for r in held.rosters]
    if field:
        (rug,) = ax.plot(
            field,
            np.zeros(len(field)),
            "|",
            color="black",
            markersize=14,
            label=gettext("a held-out roster against its whole field"),
        )
        artists.append(rug)
    span = max([abs(r - 50) for r in [*rates, *field]], default=10.0)
    ax.set_xlim(50 - span - 5, 50 + span + 5)
    ax.set_xlabel(gettext("win rate of a held-out roster at equal points (%)"))
    ax.set_ylabel(gettext("pairs"))
    ax.legend(fontsize=7, loc="upper left")
    if title is None:
        title = gettext(
            "Rosters nobody fitted the points to: {share} of {n} pairs within 50 ± 5 %, RMS {rms}\n"
            "{rosters} random legal rosters and search finds, {battles} battles a pair, seed {seed}"
        ).format(
            share=f"{held.share_in_band:.0%}",
            n=len(held.pairs),
            rms=f"{held.rms:.1%}",
            rosters=len(held.rosters),
            battles=held.battles,
            seed=held.seed,
        )
        without = held.share_without_dice
        if without is not None:  # issue 14: what the measured share understates
            title += "\n" + gettext(
                "the dice taken out, an estimated {share} of the pairs have a chance within 50 ± 5 %"
            ).format(share=f"{without:.0%}")
    ax.set_title(title, fontsize=9)
    return artists


def plot_matrix_file(
    validation: Validation,
    path: str | Path,
    rosters: RosterValidation | None = None,
    held: HeldOutValidation | None = None,
) -> Path:
    """Draw :func:`plot_matrix` (and, given ``rosters``, :func:`plot_roster_matrix` beside it;
    given ``held`` with pairs, :func:`plot_held_out` below them) on a new figure and write it to
    ``path`` atomically."""

    figure_format(path)
    use_agg()
    n = len(validation.entries)
    size = max(6.0, 0.32 * n + 3)
    with_rosters = rosters is not None and bool(rosters.cells)
    width = size + 1.5 + (0.75 * size if with_rosters else 0.0)
    below = held is not None and bool(held.pairs)
    fig = new_figure(width, size + (0.4 * size if below else 0.0))
    grid = fig.add_gridspec(
        2 if below else 1,
        2 if with_rosters else 1,
        width_ratios=(size + 1.5, 0.75 * size) if with_rosters else None,
        height_ratios=(size, 0.4 * size) if below else None,
    )
    plot_matrix(validation, fig.add_subplot(grid[0, 0]))
    if with_rosters:
        assert rosters is not None
        plot_roster_matrix(rosters, fig.add_subplot(grid[0, 1]))
    if below:
        assert held is not None
        plot_held_out(held, fig.add_subplot(grid[1, :]))
    return save_figure(fig, path)


__all__ = [
    "TERM_COLOURS",
    "plot_breakdown",
    "plot_breakdown_file",
    "plot_held_out",
    "plot_matrix",
    "plot_matrix_file",
    "plot_roster_matrix",
]
