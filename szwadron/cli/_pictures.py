"""``--plot FILE`` of the table commands (``fire``, ``melee``, ``move``, ``reach``, ``morale``):
the picture of the command's answer, written atomically, never over an input file.

Each picture is a close-up of the table around the answer (:func:`szwadron.plots.overlays.focus_region`)
with the answer's overlay, and for fire, melee and morale the charts of its odds beside it:

- fire: lines and bands, blockers, removal order | figures removed and the target's morale;
- melee: the figures in contact, removal orders | joint losses and the 5.5 outcomes;
- move, reach: the paths, ghosts and distances (reach that cannot: the envelope and where the
  move runs out);
- measure: the ruler between the two bases or units;
- morale: the flight corridors | per unit not in the normal state, its flight distances.

Standard library only at import time; matplotlib is imported when a picture is drawn.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any

from szwadron.i18n import _

#: Width (in) of the column of charts beside the table close-up, and the height of a chart.
CHART_COLUMN_IN = 5.2
CHART_HEIGHT_IN = 4.2


def add_plot_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--plot FILE`` to a table command; ``what`` says what the picture shows."""
    parser.add_argument(
        "--plot",
        metavar="FILE",
        help=f"also draw the answer: {what} (FILE.png, FILE.svg or FILE.pdf; never over an input file)",
    )


def check_plot_option(args: argparse.Namespace) -> None:
    """Fail before any work when ``--plot`` names a file of an unknown format, in a folder that
    does not exist, or a folder (exit 2)."""
    if getattr(args, "plot", None) is not None:
        from pathlib import Path

        from szwadron.cli._common import check_output_path, input_files
        from szwadron.plots._io import figure_format

        figure_format(args.plot)
        check_output_path(args.plot, inputs=tuple(Path(f) for f in input_files(args)))


def _table_and_charts(
    bf: Any,
    region: Any,
    overlay: Callable[[Any], Any],
    charts: int,
    draw_charts: Callable[[list[Any]], None] | None,
    *,
    min_height: float = 0.0,
    title: str | None = None,
) -> Any:
    """A figure: the table close-up (with ``overlay(ax)``) and ``charts`` stacked axes beside
    it, drawn by ``draw_charts(axes)``."""
    from szwadron.plots._io import new_figure
    from szwadron.plots.table import plot_table, table_figsize

    tw, th = table_figsize(region)
    height = max(th, min_height, CHART_HEIGHT_IN * charts)
    width = tw + (CHART_COLUMN_IN if charts else 0.0)
    fig = new_figure(round(width, 1), round(height, 1))
    if charts:
        subs: Any = fig.subfigures(1, 2, width_ratios=[tw, CHART_COLUMN_IN], wspace=0.0)
        left, right = subs
        ax = left.add_subplot()
        spare = max(0.0, height - CHART_HEIGHT_IN * charts)  # charts keep their height
        rows = right.subplots(
            charts + 1, 1, squeeze=False, height_ratios=[CHART_HEIGHT_IN] * charts + [max(spare, 1e-3)]
        )
        rows[-1, 0].axis("off")
        chart_axes = list(rows[:-1, 0])
    else:
        ax = fig.add_subplot()
        chart_axes = []
    plot_table(bf, ax, region=region, title=title)
    overlay(ax)
    if draw_charts is not None:
        draw_charts(chart_axes)
    return fig


def _table_of(result: Any) -> Any:
    """The Battlefield an answer was computed on (its ``table``): the picture draws that table
    rather than building it again."""
    if result.table is None:
        raise ValueError(f"{type(result).__name__} carries no table to draw")
    return result.table


def _save(fig: Any, path: str, inputs: Iterable[str | None]) -> int:
    from szwadron.plots._io import save_figure

    out = save_figure(fig, path, inputs=tuple(p for p in inputs if p is not None))
    print(_("picture: {path}").format(path=out), file=sys.stderr)
    return 0


def plot_fire_answer(args: argparse.Namespace, bf: Any, result: Any) -> None:
    """``fire --plot``: the close-up with lines and bands beside the volley and morale charts."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.odds import plot_morale_outcomes, plot_volley
    from szwadron.plots.overlays import fire_geometries, focus_region, plot_fire

    region = focus_region(bf, fire_geometries(bf, result))
    verdict = _("can fire") if result.legal else _("CANNOT fire")

    def charts(axes: list[Any]) -> None:
        if result.odds is None:
            for a in axes:
                a.axis("off")
            r = result.reason
            axes[0].text(
                0.02,
                0.95,
                _("{shooter} cannot fire at {target}").format(shooter=result.shooter, target=result.target)
                + (f"\n[{r.rule}] " + _wrap(r.message, 60) if r else ""),
                transform=axes[0].transAxes,
                ha="left",
                va="top",
                fontsize=9,
                color="#d7191c",
            )
            return
        plot_volley(result.odds, axes[0], title="Figures removed")
        m = result.morale_test
        plot_morale_outcomes(
            {o.value: float(p) for o, p in result.morale.items()},
            axes[1],
            title=_("{target}'s morale (M {morale}, {strength} of {initial} figures)").format(
                target=result.target, morale=m.morale, strength=m.strength, initial=m.initial
            ),
        )

    fig = _table_and_charts(
        bf,
        region,
        lambda ax: plot_fire(bf, ax, result=result),
        2,
        charts,
        title=_("{shooter} fires at {target}").format(shooter=result.shooter, target=result.target)
        + f": {verdict}",
    )
    _save(fig, args.plot, (args.scenario,))


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def plot_melee_answer(args: argparse.Namespace, melee: Any) -> None:
    """``melee --plot``: the contacts close-up beside the joint-loss heatmap and the outcomes."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.odds import plot_joint_losses, plot_melee_outcomes
    from szwadron.plots.overlays import focus_region, plot_melee_contacts, unit_geometry

    bf = _table_of(melee)

    region = focus_region(bf, [unit_geometry(bf, melee.attacker), unit_geometry(bf, melee.defender)])

    def charts(axes: list[Any]) -> None:
        plot_joint_losses(melee.odds, axes[0])
        plot_melee_outcomes(melee.odds, axes[1])
        axes[1].tick_params(axis="x", labelsize=7.5)

    fs = f", first strike: {melee.first_strike}" if melee.first_strike else ""
    fig = _table_and_charts(
        bf,
        region,
        lambda ax: plot_melee_contacts(bf, ax, melee=melee),
        2,
        charts,
        min_height=8.0,
        title=_("Melee: {attacker} attacks {defender}").format(
            attacker=melee.attacker, defender=melee.defender
        )
        + fs,
    )
    _save(fig, args.plot, (args.scenario,))


def plot_move_answer(args: argparse.Namespace, report: Any, named: str | None = None) -> None:
    """``move --plot``: the close-up with the paths, ghosts and distances; ``named`` names the
    move in the title (default: move, charge or push-up)."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.overlays import focus_region, move_geometries, plot_move

    bf = _table_of(report)

    region = focus_region(bf, move_geometries(bf, report))
    what = _("charge on {units}").format(units=", ".join(report.charge)) if report.charge else _("move")
    if report.push_up is not None:
        what = _("push-up towards {unit} (5.6)").format(unit=report.push_up)
    if named is not None:
        what = named
    fig = _table_and_charts(
        bf,
        region,
        lambda ax: plot_move(bf, ax, report=report),
        0,
        None,
        title=f"{', '.join(report.units)}: {what}",
    )
    _save(fig, args.plot, (args.scenario, args.to))  # --repulse: no move file (None, left out)


def plot_reach_answer(args: argparse.Namespace, result: Any) -> None:
    """``reach --plot``: the close-up with the shortest path into contact."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.overlays import focus_region, plot_reach, reach_geometries

    bf = _table_of(result)

    region = focus_region(bf, reach_geometries(bf, result))
    fig = _table_and_charts(
        bf,
        region,
        lambda ax: plot_reach(bf, ax, result=result),
        0,
        None,
        title=_("Can {unit} reach {target}?").format(unit=result.unit, target=result.target),
    )
    _save(fig, args.plot, (args.scenario,))


def plot_measure_answer(args: argparse.Namespace, bf: Any, measurement: Any) -> None:
    """``measure --plot``: the close-up of both bases or units with the ruler between them."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.overlays import focus_region, plot_ruler, ruler_geometry

    region = focus_region(bf, ruler_geometry(bf, args.a, args.b))
    fig = _table_and_charts(
        bf,
        region,
        lambda ax: plot_ruler(bf, ax, a=args.a, b=args.b),
        0,
        None,
        title=f"{measurement.a} to {measurement.b}: {measurement.distance:.2f} cm (4.5.2)",
    )
    _save(fig, args.plot, (args.scenario,))


def plot_morale_answer(args: argparse.Namespace, report: Any) -> None:
    """``morale --plot``: flight corridors on the close-up, a flight chart per fleeing unit."""
    from szwadron.plots._io import use_agg

    use_agg()
    from szwadron.plots.odds import plot_flight_chances
    from szwadron.plots.overlays import flight_geometries, focus_region, plot_flight

    bf = _table_of(report)

    fleeing = [
        u for u in report.units if u.pursuit is None and u.flight is not None and u.flight_multiplier > 0
    ]
    region = focus_region(bf, flight_geometries(bf, report.units))

    def overlay(ax: Any) -> None:
        for u in report.units:
            plot_flight(bf, ax, unit=u)

    def charts(axes: list[Any]) -> None:
        for a, u in zip(axes, fleeing, strict=True):
            plot_flight_chances(u, a)

    title = _("Morale phase of side {side}").format(side=report.side)
    if not report.units:
        title += ": " + _("every unit is in the normal state")
    fig = _table_and_charts(bf, region, overlay, len(fleeing), charts if fleeing else None, title=title)
    _save(fig, args.plot, (args.scenario,))


__all__ = [
    "add_plot_option",
    "check_plot_option",
    "plot_fire_answer",
    "plot_measure_answer",
    "plot_melee_answer",
    "plot_morale_answer",
    "plot_move_answer",
    "plot_reach_answer",
]
