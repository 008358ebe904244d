"""``szwadron plot SCENARIO -o FILE.png|svg|pdf`` — the table drawn to scale.

Terrain, bases with their facings, unit labels, enemy contacts, a cm grid, a scale bar and a
key; ``--zones`` adds the control zones (1.4) and rings bases standing in enemy zones;
``--region x0,y0,x1,y1`` draws a close-up. The file is written atomically and never over an
input file; its format comes from its suffix.

Overlays to come (``--arcs``, ``--fire``, ``--move``, ``--reach``) are drawn in :func:`run`
right after :func:`szwadron.plots.table.plot_table`, onto the same axes and battlefield, by
functions following the overlay convention of :mod:`szwadron.plots.table`; the key is then
redrawn with :func:`szwadron.plots.table.draw_legend`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``plot`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "plot",
        help="draw the table to scale: terrain, bases, facings, zones, contacts (PNG, SVG, PDF)",
        description=(
            "Draw a scenario's table to scale, in cm: terrain, bases with their facings coloured "
            "by side and labelled by unit, enemy contacts, a grid, a scale bar and a key. The "
            "format comes from the suffix of -o (.png, .svg, .pdf)."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="picture to write: FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--zones", action="store_true",
                   help="draw control zones (1.4) and ring bases standing in enemy zones")
    p.add_argument("--region", metavar="x0,y0,x1,y1",
                   help="draw only this part of the table (cm), e.g. 110,30,165,55 "
                   "(write --region=-5,0,40,30 when it starts with a minus sign)")
    p.add_argument("--no-labels", action="store_true", help="no unit and terrain labels")
    p.add_argument("--no-contacts", action="store_true", help="do not mark enemy contacts")
    p.add_argument("--dpi", type=int, default=100, metavar="N",
                   help="resolution of PNG output (default 100: a 180 × 120 cm table is 1230 px wide)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, draw, write; exit code 0 (2 for bad input, raised as :class:`InvalidDataError`)."""
    from szwadron.errors import InvalidDataError
    from szwadron.plots._io import figure_format, use_agg

    fmt = figure_format(args.output)  # before any work: a bad suffix is bad usage
    if not 20 <= args.dpi <= 600:
        raise InvalidDataError(f"--dpi must be between 20 and 600, got {args.dpi}")
    use_agg()

    from szwadron.geometry.table import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.plots._io import new_figure, pixel_size, save_figure
    from szwadron.plots.table import parse_region, plot_table, table_figsize, table_view

    region = parse_region(args.region) if args.region else None
    scenario = load_scenario(args.scenario)
    bf = Battlefield(scenario)
    view = table_view(scenario, region)
    fig = new_figure(*table_figsize(view), dpi=args.dpi)
    ax = fig.add_subplot()
    plot_table(bf, ax, region=region, zones=args.zones, contacts=not args.no_contacts,
               labels=not args.no_labels, names=not args.no_labels)
    # overlays (arcs, sight bands, paths, reach) go here, drawn onto ``ax`` with ``bf``
    w, h = pixel_size(fig)
    path = save_figure(fig, args.output, inputs=(args.scenario,))
    size = f", {w}×{h} px" if fmt == "png" else ""
    print(f"{path}: {scenario.name!r} ({fmt}{size})", file=sys.stdout)
    return 0
