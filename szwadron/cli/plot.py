"""``szwadron plot SCENARIO -o FILE.png|svg|pdf [overlays]`` — the table drawn to scale, and
``szwadron plot morale -o FILE [--scenario S --unit U]`` — the morale state machine.

The table: terrain, bases with their facings, unit labels, enemy contacts, a cm grid, a scale
bar and a key; ``--zones`` adds the control zones (1.4) and rings bases standing in enemy zones;
``--region x0,y0,x1,y1`` draws a close-up. Overlays, each drawn by
:mod:`szwadron.plots.overlays` from the library's own answer:

- ``--arcs UNIT`` — each firing edge's arc of the unit's bases, edges touched by own bases in
  red (4.4.1–4.4.3); repeatable;
- ``--fire SHOOTER:TARGET`` — the sight lines and bands of ``szwadron fire``, blocked ones with
  their blockers and rules, the removal order;
- ``--move UNIT:MOVEFILE`` — the paths, final poses and distances of ``szwadron move``;
- ``--reach UNIT:TARGET`` — the shortest path into contact of ``szwadron reach``.

Zoom (decision): with an overlay and no ``--region``, the picture is a close-up of what the
overlays are about — the units named, the paths, the arcs out to their range, the blocking
features — grown by 5 cm or 15 % (the larger), at least 24 cm across
(:func:`szwadron.plots.overlays.focus_region`); ``--region`` always wins, ``--region all`` asks
for the whole table.

The first positional is a scenario file, or the word ``morale`` for the state machine; a
scenario file literally named ``morale`` is reached as ``./morale``. The file is written
atomically and never over an input file (scenario, move file); its format comes from its suffix.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from szwadron.i18n import _

#: The word that asks for the morale state machine instead of a scenario.
MACHINE_WORD = "morale"


def _pair(flag: str) -> Any:
    def parse(text: str) -> tuple[str, str]:
        a, sep, b = text.partition(":")
        if not sep or not a.strip() or not b.strip():
            raise argparse.ArgumentTypeError(
                _("expected {flag}, got {text}").format(flag=flag, text=repr(text))
            )
        return a.strip(), b.strip()

    return parse


# long: a declaration: one add_argument per option with its help text, no logic.
def register(subparsers: Any) -> None:
    """Add the ``plot`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "plot",
        help="draw the table to scale with zones, arcs, sight bands and paths; or the morale "
        "state machine (PNG, SVG, PDF)",
        description=(
            "Draw a scenario's table to scale, in cm: terrain, bases with their facings coloured "
            "by side and labelled by unit, enemy contacts, a grid, a scale bar and a key, with "
            "optional overlays (arcs, fire, moves, reach). With an overlay and no --region the "
            "picture zooms to what the overlay is about (the units, paths and arcs, with a "
            "margin of 5 cm or 15%, at least 24 cm across); --region all draws the whole table. "
            "`szwadron plot morale -o FILE` draws the morale state machine instead (a scenario "
            "file named 'morale' is reached as ./morale). The format comes from the suffix of "
            "-o (.png, .svg, .pdf); an input file is never overwritten."
        ),
        epilog=(
            "examples: szwadron plot battle.toml -o table.png --fire fr-battery:au-battery | "
            "szwadron plot battle.toml -o arcs.svg --arcs fr-line-1 | "
            "szwadron plot morale -o machine.png --scenario battle.toml --unit au-cuirassiers"
        ),
    )
    p.add_argument(
        "scenario",
        metavar="SCENARIO|morale",
        help="scenario file (TOML), or the word 'morale' to draw the morale state "
        "machine (a scenario file named 'morale': write ./morale)",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="picture to write: FILE.png, FILE.svg or FILE.pdf, or - for standard output "
        "(SVG unless --format says otherwise; PNG and PDF only into a pipe or a file)",
    )
    p.add_argument(
        "--format",
        choices=("png", "svg", "pdf"),
        help="picture format of -o - (with a file, its suffix says it)",
    )
    table = p.add_argument_group("the table (SCENARIO)")
    table.add_argument(
        "--zones", action="store_true", help="draw control zones (1.4) and ring bases standing in enemy zones"
    )
    table.add_argument(
        "--arcs",
        action="append",
        default=[],
        metavar="UNIT",
        help="the arcs of fire of each edge of the unit's bases, edges touched "
        "by own bases in red (4.4.1-4.4.3); repeatable",
    )
    table.add_argument(
        "--fire",
        type=_pair("SHOOTER:TARGET"),
        metavar="SHOOTER:TARGET",
        help="sight lines and bands of this fire, blocked ones with their "
        "blocker and rule (4.3, 4.10), the removal order (4.7)",
    )
    table.add_argument(
        "--move",
        type=_pair("UNIT:MOVEFILE"),
        metavar="UNIT:MOVEFILE",
        help="the move of UNIT in a move file: each base's path (PD-6), final pose and distance",
    )
    table.add_argument(
        "--reach",
        type=_pair("UNIT:TARGET"),
        metavar="UNIT:TARGET",
        help="the shortest legal path of UNIT's nearest base into contact with TARGET, and its "
        "length (3.1, 5.2)",
    )
    table.add_argument(
        "--ruler",
        nargs=2,
        action="append",
        default=[],
        metavar=("A", "B"),
        help="a ruler between two bases (UNIT/INDEX) or units: the least edge-to-edge distance "
        "(4.5.2) as a dimension line with its length; repeatable",
    )
    table.add_argument(
        "--region",
        metavar="x0,y0,x1,y1",
        help="draw only this part of the table (cm), e.g. 110,30,165,55, or 'all' "
        "(default: the whole table, or a close-up of the overlays) "
        "(write --region=-5,0,40,30 when it starts with a minus sign)",
    )
    table.add_argument("--no-labels", action="store_true", help="no unit and terrain labels")
    table.add_argument("--no-contacts", action="store_true", help="do not mark enemy contacts (PD-14)")
    machine = p.add_argument_group("the morale state machine (plot morale)")
    machine.add_argument(
        "--scenario",
        dest="machine_scenario",
        metavar="S",
        help="plot morale: the scenario file holding --unit",
    )
    machine.add_argument(
        "--unit",
        dest="machine_unit",
        metavar="U",
        help="plot morale: a unit of --scenario; its state is ringed and each branch from it "
        "carries its exact chance (section 6)",
    )
    p.add_argument(
        "--dpi",
        type=int,
        default=100,
        metavar="N",
        help="resolution of PNG output (default 100: a 180 × 120 cm table is 1230 px wide)",
    )
    p.set_defaults(func=run)


def _overlays(args: argparse.Namespace) -> list[str]:
    return [
        f
        for f, on in (
            ("--arcs", args.arcs),
            ("--fire", args.fire),
            ("--move", args.move),
            ("--reach", args.reach),
            ("--ruler", args.ruler),
        )
        if on
    ]


def _output_format(args: argparse.Namespace) -> str:
    """The picture's format, checked before any work: ``-o -`` writes ``--format`` (default SVG),
    never PNG or PDF to a terminal; a file's suffix names it (a bad suffix is bad usage), and
    ``--format``, if given, must agree; the output is never one of the inputs."""
    from pathlib import Path

    from szwadron.cli._common import check_output_path, input_files
    from szwadron.errors import InvalidDataError
    from szwadron.files import is_stdio
    from szwadron.plots._io import figure_format

    if is_stdio(args.output):
        fmt: str = args.format or "svg"
        if fmt != "svg" and sys.stdout.isatty():
            raise InvalidDataError(
                _(
                    "-o -: refusing to write {FMT} to a terminal; redirect it (> FILE.{fmt}) or pipe it"
                ).format(FMT=fmt.upper(), fmt=fmt)
            )
        return fmt
    fmt = figure_format(args.output)
    check_output_path(args.output, inputs=tuple(Path(f) for f in input_files(args)))
    if args.format and args.format != fmt:
        raise InvalidDataError(
            _("{path}: the suffix says {suffix}, --format says {fmt}").format(
                path=args.output, suffix=fmt, fmt=args.format
            )
        )
    return fmt


def run(args: argparse.Namespace) -> int:
    """Load, draw, write; exit code 0 (2 for bad input, raised as :class:`InvalidDataError`)."""
    from szwadron.errors import InvalidDataError
    from szwadron.files import is_stdio
    from szwadron.plots._io import use_agg

    fmt = _output_format(args)
    if not 20 <= args.dpi <= 600:
        raise InvalidDataError(_("--dpi must be between 20 and 600, got {value}").format(value=args.dpi))
    if args.scenario == MACHINE_WORD:
        used = _overlays(args) + [f for f, on in (("--zones", args.zones), ("--region", args.region)) if on]
        if used:
            raise InvalidDataError(
                _(
                    "plot morale draws the state machine: {options} belong to a scenario's table (a "
                    "scenario file named 'morale' is ./morale)"
                ).format(options=", ".join(used))
            )
        use_agg()
        return _run_machine(args, fmt)
    if args.machine_scenario or args.machine_unit:
        raise InvalidDataError(
            _(
                "--scenario and --unit belong to `szwadron plot morale`; the table's scenario is the first argument"
            )
        )
    use_agg()

    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.plots._io import new_figure, pixel_size, save_figure
    from szwadron.plots.table import parse_region, plot_table, table_figsize

    whole = args.region is not None and args.region.strip().lower() == "all"
    region = parse_region(args.region) if args.region and not whole else None
    scenario = load_scenario(args.scenario)
    bf = Battlefield(scenario)
    inputs: list[str] = [args.scenario]
    draws, focus = _answers(args, bf, inputs)
    if region is None and focus and not whole:
        from szwadron.plots.overlays import focus_region

        region = focus_region(bf, focus)
    from szwadron.plots.table import table_view

    view = table_view(scenario, region)
    fig = new_figure(*table_figsize(view), dpi=args.dpi)
    ax = fig.add_subplot()
    title = None
    if draws:
        title = scenario.name + "\n" + "; ".join(what for what, _draw in draws)
    plot_table(
        bf,
        ax,
        region=region,
        zones=args.zones,
        contacts=not args.no_contacts,
        labels=not args.no_labels,
        names=not args.no_labels,
        title=title,
    )
    for _what, draw in draws:  # overlays: onto ``ax``, with ``bf``; each redraws the key
        draw(ax)
    w, h = pixel_size(fig)
    path = save_figure(fig, args.output, inputs=inputs, fmt=fmt)
    size = f", {w}×{h} px" if fmt == "png" else ""
    where = sys.stderr if is_stdio(args.output) else sys.stdout  # stdout holds the picture
    print(f"{path}: {scenario.name!r} ({fmt}{size})", file=where)
    return 0


def _answers(args: argparse.Namespace, bf: Any, inputs: list[str]) -> tuple[list[Any], list[Any]]:
    """Ask the library every overlay's question (bad ids fail here, before drawing): the
    overlays as ``(what, draw)`` and the geometries to focus on."""
    from szwadron.plots import overlays as ov

    draws: list[Any] = []
    focus: list[Any] = []
    for unit in args.arcs:
        arcs = ov.arc_geometries(bf, unit)
        focus += [ov.unit_geometry(bf, unit), *arcs.values()]
        draws.append((_("arcs of {unit}").format(unit=unit), lambda ax, u=unit: ov.plot_arcs(bf, ax, unit=u)))
    if args.fire:
        from szwadron.table.fire import fire

        result = fire(bf, *args.fire)
        focus += ov.fire_geometries(bf, result)
        verdict = _("can fire") if result.legal else _("cannot fire")
        draws.append(
            (
                _("{shooter} fires at {target}: {verdict}").format(
                    shooter=result.shooter, target=result.target, verdict=verdict
                ),
                lambda ax: ov.plot_fire(bf, ax, result=result),
            )
        )
    if args.move:
        from szwadron.table.movement import check_move, load_move_file

        unit, movefile = args.move
        inputs.append(movefile)
        report = check_move(bf, unit, load_move_file(movefile), source=movefile)
        focus += ov.move_geometries(bf, report)
        draws.append(
            (
                _("move of {unit}: {verdict}").format(
                    unit=unit, verdict=_("legal") if report.legal else _("ILLEGAL")
                ),
                lambda ax: ov.plot_move(bf, ax, report=report),
            )
        )
    if args.reach:
        from szwadron.table.reach import reach

        r = reach(bf, *args.reach)
        focus += ov.reach_geometries(bf, r)
        draws.append(
            (
                (_("{unit} can reach {target}") if r.reachable else _("{unit} cannot reach {target}")).format(
                    unit=r.unit, target=r.target
                ),
                lambda ax: ov.plot_reach(bf, ax, result=r),
            )
        )
    for a, b in args.ruler:
        m = bf.measure(a, b)  # bad ids fail here
        focus += ov.ruler_geometry(bf, a, b)
        draws.append(
            (
                _("{a} to {b}: {cm:.2f} cm").format(a=m.a, b=m.b, cm=m.distance),
                lambda ax, a=a, b=b: ov.plot_ruler(bf, ax, a=a, b=b),
            )
        )
    return draws, focus


def _run_machine(args: argparse.Namespace, fmt: str) -> int:
    from szwadron.errors import InvalidDataError
    from szwadron.files import is_stdio
    from szwadron.plots._io import new_figure, pixel_size, save_figure
    from szwadron.plots.machine import plot_morale_machine, unit_branches

    inputs: list[str] = []
    unit = None
    if args.machine_unit and not args.machine_scenario:
        raise InvalidDataError(_("--unit needs --scenario (the scenario holding the unit)"))
    if args.machine_scenario:
        from szwadron.loading import load_scenario

        inputs.append(args.machine_scenario)
        scenario = load_scenario(args.machine_scenario)
        if not args.machine_unit:
            raise InvalidDataError(_("--scenario needs --unit (whose branch chances to write)"))
        unit = unit_branches(scenario, args.machine_unit)
    fig = new_figure(13.0, 7.6, dpi=args.dpi)
    plot_morale_machine(fig.add_subplot(), unit=unit)
    w, h = pixel_size(fig)
    path = save_figure(fig, args.output, inputs=inputs, fmt=fmt)
    size = f", {w}×{h} px" if fmt == "png" else ""
    where = sys.stderr if is_stdio(args.output) else sys.stdout  # stdout holds the picture
    print(
        _("{path}: the morale state machine ({fmt}{size})").format(path=path, fmt=fmt, size=size), file=where
    )
    return 0
