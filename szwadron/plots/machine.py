"""The morale state machine drawn (issue 8, ``szwadron plot morale``): states as nodes,
transitions as labelled arrows with their rule numbers, read from
:data:`szwadron.odds.machine.MACHINE` — the table the engine itself runs on.

One numbered arrow per pair of different states; beside the diagram, the list gives for each
number every event and branch that takes it, each with its rule (e.g. ``fire: panic 6.3.5``),
then the transitions that keep each state. With a unit (:func:`unit_branches`), the arrows leaving
its current state carry each branch's exact chance on the arrow itself (and in the list), that
state is ringed, and the arrows that cannot be taken from it fade.

matplotlib is imported only inside the functions; nothing calls ``show()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.i18n import N_, current_language, gettext, ngettext, pgettext, term
from szwadron.odds.machine import MACHINE, Event, EventKind, MachineState, MoraleUnit, step
from szwadron.table.morale_phase import morale_phase

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from szwadron.models import Scenario, Unit

#: Where each state sits (data coordinates of the diagram; the list of transitions is on the
#: right, from x = 9.9).
NODE_POSITIONS: dict[MachineState, tuple[float, float]] = {
    MachineState.NORMAL: (1.0, 4.6),
    MachineState.REPULSED: (4.6, 8.0),
    MachineState.PANIC: (8.2, 4.6),
    MachineState.PURSUIT: (2.6, 0.9),
    MachineState.REMOVED: (7.4, 0.9),
}

#: Fill of each state's node (the outcome colours of :mod:`szwadron.plots.odds`).
NODE_COLOURS: dict[MachineState, str] = {
    MachineState.NORMAL: "#2e8b57",
    MachineState.REPULSED: "#e3a008",
    MachineState.PANIC: "#d62728",
    MachineState.PURSUIT: "#8e44ad",
    MachineState.REMOVED: "#262626",
}

#: Short names of the events in labels.
EVENT_SHORT: dict[EventKind, str] = {
    EventKind.FIRE_CASUALTIES: N_("fire"),
    EventKind.MELEE_CASUALTIES: N_("melee"),
    EventKind.CHARGED: N_("charged"),
    EventKind.DISENGAGE: N_("disengage"),
    EventKind.OPPONENT_LEFT: N_("enemy left"),
    EventKind.PASSED_THROUGH: N_("passed through"),
    EventKind.REORGANISE: N_("reorganise"),
    EventKind.REPULSE: N_("repulse"),
    EventKind.RETREAT: N_("retreat"),
    EventKind.TABLE_EDGE: N_("table edge"),
    EventKind.SURRENDER: N_("surrender"),
    EventKind.PURSUED_DESTROYED: N_("pursued destroyed"),
    EventKind.ORDER: N_("order"),
}


def state_word(state: str) -> str:
    """A state of the machine (6.1.1, with the retreat and the unit's end) in the chosen language."""
    words = {
        "normal": pgettext("morale state", "normal"),
        "panic": pgettext("morale state", "panic"),
        "pursuit": pgettext("morale state", "pursuit"),
        "repulsed": pgettext("morale state", "repulsed"),
        "removed": pgettext("morale state", "removed"),
    }
    return words.get(state, state)


#: Curvature of the arrow between two states (the reverse pair bends the other way).
_RAD = 0.18

Branches = dict[tuple[EventKind, str], Fraction]


@dataclass(frozen=True)
class UnitBranches:
    """A unit's current state and the chance of each branch of each event in it
    (``None`` for an event whose guard the table does not meet, with the rule)."""

    unit: str
    state: MachineState
    chances: Mapping[tuple[EventKind, str], Fraction]
    refused: Mapping[EventKind, str]
    removed: int = 1


def unit_branches(scenario: Scenario, unit: str | Unit, *, removed: int = 1) -> UnitBranches:
    """6.1–6.8 — the chance of every branch of every event a scenario unit may meet in its
    state, by :func:`szwadron.odds.machine.step` (exact).

    Fire casualties are taken with ``removed`` figures removed (default 1); melee casualties
    depend on both units and are left out; the guards of reorganisation (6.8.2, 6.8.3) are
    read off the table by :func:`szwadron.table.morale_phase.morale_phase`; surrender and the retreat
    are taken with their guards met. An event the rules refuse in the state is left out; one
    whose guard fails on the table is listed in ``refused`` with its rule.
    """

    u = unit if not isinstance(unit, str) else next((x for x in scenario.units if x.id == unit), None)
    if u is None:
        known = ", ".join(x.id for x in scenario.units)
        raise InvalidArgumentError(
            "unit", gettext("{unit}: no such unit (units: {known})").format(unit=repr(unit), known=known)
        )
    mu = MoraleUnit.of(u)
    state = mu.state
    enemy_within = engaged = False
    if state in (MachineState.PANIC, MachineState.PURSUIT):
        report = morale_phase(scenario, u.side).unit(u.id)
        enemy_within = engaged = not report.may_reorganise
    chances: dict[tuple[EventKind, str], Fraction] = {}
    refused: dict[EventKind, str] = {}
    for kind in sorted(MACHINE.events_in(state), key=list(EventKind).index):
        if kind is EventKind.MELEE_CASUALTIES:
            continue
        if kind is EventKind.FIRE_CASUALTIES:
            event = Event.fire(min(removed, mu.strength))
        elif kind is EventKind.REORGANISE:
            event = Event.reorganise(enemy_within=enemy_within, engaged=engaged)
        elif kind is EventKind.SURRENDER:
            event = Event.surrender()
        else:
            event = Event(kind)
        try:
            dist = step(mu, event)
        except IllegalActionError as exc:
            refused[kind] = exc.rule
            continue
        for r in dist.outcomes():
            chances[(kind, r.branch)] = dist.probability(r)
    return UnitBranches(u.id, state, chances, refused, removed)


def _pct(p: Fraction) -> str:
    v = 100 * float(p)
    return "100%" if v >= 99.95 else f"{v:.1f}%" if v >= 0.1 else "<0.1%"


def _bezier(p0: tuple[float, float], p1: tuple[float, float], rad: float, t: float) -> tuple[float, float]:
    """The point at ``t`` of matplotlib's ``arc3,rad=rad`` curve from ``p0`` to ``p1``."""
    (x0, y0), (x1, y1) = p0, p1
    cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
    a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t**2
    return a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1


def _chances_text(transitions: list[Any], unit: UnitBranches) -> str:
    """``fire 25.0%`` per branch of ``transitions`` with a chance for ``unit``, one per line."""
    taken = [(t, unit.chances.get((t.event, t.branch))) for t in transitions]
    taken = [(t, p) for t, p in taken if p is not None and p > 0]
    events = [t.event for t, _ in taken]
    lines = []
    for t, p in taken:
        assert p is not None
        # an event with two branches on one arrow names the branch too
        what = gettext(EVENT_SHORT[t.event]) + (
            " " + term(t.branch).replace("_", " ") if events.count(t.event) > 1 else ""
        )
        lines.append(f"{what} {_pct(p)}")
    return "\n".join(lines)


def _chance_label(ax: Axes, x: float, y: float, text: str, colour: str) -> Any:
    return ax.text(
        x,
        y,
        text,
        ha="center",
        va="center",
        fontsize=7.5,
        fontweight="bold",
        color="#000000",
        zorder=6,
        linespacing=1.15,
        bbox={"boxstyle": "round,pad=0.25", "facecolor": "#ffffff", "edgecolor": colour, "linewidth": 1.4},
    )


# long: a drawing: node placement, arrows and their labels for every edge of the machine.
def plot_morale_machine(
    ax: Axes | None = None,
    *,
    unit: UnitBranches | None = None,
    title: str | None = None,
) -> dict[str, Any]:
    """6.1–6.8, 5.5, 5.8, 7.6 — the morale state machine: one node per state, one numbered
    arrow per pair of states joined by some transition; beside the diagram, the list of every
    transition by arrow number — ``event: branch rule`` — and, per state, those that keep the
    unit in it. With ``unit`` (:func:`unit_branches`), the chance of each branch from the unit's
    state follows its rule, that state is ringed, its arrows are drawn bold and the others fade.

    With ``unit``, each arrow leaving its state also carries the chances of its branches on the
    arrow itself (``fire 25.0%``, one line per event; the chances of staying are in the list).

    Returns ``{"nodes": [one circle per state], "arrows": [one per pair of different states],
    "tags": [the arrows' numbers], "labels": [one text per arrow and per state with
    self-transitions, in the list], "chances": [with ``unit``: one text per arrow leaving its
    state that some branch takes]}``.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from szwadron.plots._io import new_figure
    >>> art = plot_morale_machine(new_figure(13, 7.6).add_subplot())
    >>> len(art["nodes"]), len(art["arrows"]) == len({(t.source, t.target) for t in MACHINE
    ...                                                 if t.source is not t.target})
    (5, True)
    """
    import textwrap

    from matplotlib.patches import Circle, FancyArrowPatch

    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.figure(figsize=(13.0, 7.6), layout="constrained").add_subplot()
    ax.set_xlim(0.0, 17.6)
    ax.set_ylim(0.0, 9.0)
    ax.set_aspect("equal")
    ax.axis("off")
    out: dict[str, Any] = {"nodes": [], "arrows": [], "tags": [], "labels": [], "chances": []}
    radius = 0.62
    here = unit.state if unit is not None else None

    def entry(t: Any) -> str:
        text = f"{gettext(EVENT_SHORT[t.event])}: {term(t.branch).replace('_', ' ')} {t.rule}"
        if unit is not None and t.source is here:
            p = unit.chances.get((t.event, t.branch))
            if p is not None:
                text += f" = {_pct(p)}"
            elif t.event in unit.refused:
                text += f" (not now, {unit.refused[t.event]})"
        return text

    for s, (x, y) in NODE_POSITIONS.items():
        ring = here is s
        c = Circle(
            (x, y),
            radius,
            facecolor=NODE_COLOURS[s],
            edgecolor="#000000" if ring else "#ffffff",
            linewidth=3.0 if ring else 1.0,
            zorder=3,
        )
        ax.add_patch(c)
        c.set_gid(f"state-{s.value}")
        out["nodes"].append(c)
        ax.text(
            x,
            y,
            state_word(s.value),
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
            color="#ffffff",
            zorder=4,
        )
    fig: Any = ax.get_figure()
    while not hasattr(fig, "get_size_inches"):
        fig = fig.figure
    pos = ax.get_position()
    fw, fh = fig.get_size_inches()
    pt_per_unit = 72.0 * min(pos.width * fw / 17.6, pos.height * fh / 9.0)
    shrink = radius * pt_per_unit + 3.0  # arrows end at the rim of the nodes
    pairs: dict[tuple[MachineState, MachineState], list[Any]] = {}
    loops: dict[MachineState, list[Any]] = {}
    for t in MACHINE.transitions:
        if t.source is t.target:
            loops.setdefault(t.source, []).append(t)
        else:
            pairs.setdefault((t.source, t.target), []).append(t)
    rows: list[tuple[str, str, bool, bool]] = []  # (head, body, active, faded)
    for n, ((a, b), ts) in enumerate(pairs.items(), start=1):
        p0, p1 = NODE_POSITIONS[a], NODE_POSITIONS[b]
        faded = here is not None and a is not here
        active = here is not None and a is here
        arrow = FancyArrowPatch(
            p0,
            p1,
            connectionstyle=f"arc3,rad={_RAD}",
            arrowstyle="-|>",
            mutation_scale=16,
            shrinkA=shrink,
            shrinkB=shrink,
            color=NODE_COLOURS[b],
            linewidth=2.4 if active else 1.4,
            alpha=0.25 if faded else 0.95,
            zorder=2,
        )
        ax.add_patch(arrow)
        out["arrows"].append(arrow)
        tx, ty = _bezier(p0, p1, _RAD, 0.42)
        tag = ax.text(
            tx,
            ty,
            str(n),
            ha="center",
            va="center",
            fontsize=8,
            fontweight="bold",
            color="#000000",
            alpha=0.5 if faded else 1.0,
            zorder=5,
            bbox={
                "boxstyle": "circle,pad=0.2",
                "facecolor": "#ffffff",
                "edgecolor": NODE_COLOURS[b],
                "linewidth": 1.2,
                "alpha": 0.6 if faded else 1.0,
            },
        )
        out["tags"].append(tag)
        if active and unit is not None:
            on_arrow = _chances_text(ts, unit)
            if on_arrow:
                cx, cy = _bezier(p0, p1, _RAD, 0.66)
                out["chances"].append(_chance_label(ax, cx, cy, on_arrow, NODE_COLOURS[b]))
        rows.append(
            (
                f"{n}  {state_word(a.value)} → {state_word(b.value)}",
                "; ".join(entry(t) for t in ts),
                active,
                faded,
            )
        )
    for s, ts in loops.items():
        rows.append(
            (
                "·  " + gettext("stays {state}").format(state=state_word(s.value)),
                "; ".join(entry(t) for t in ts),
                here is s,
                here is not None and s is not here,
            )
        )
    y = 8.9
    x = 9.9
    for head, body, active, faded in rows:
        # Polish words are longer: a wider column keeps the list inside the figure
        width = 84 if current_language() == "en" else 96
        lines = textwrap.wrap(body, width, initial_indent="    ", subsequent_indent="    ")
        txt = ax.text(
            x,
            y,
            head + "\n" + "\n".join(lines),
            ha="left",
            va="top",
            fontsize=6.9,
            color="#9a9a9a" if faded else "#1f1f1f",
            fontweight="bold" if active else "normal",
            linespacing=1.25,
        )
        out["labels"].append(txt)
        y -= 0.205 * (1 + len(lines)) + 0.09
    if title is None:
        title = gettext("Morale as a state machine (section 6): numbered arrows, the transitions listed")
        if unit is not None:
            title += "\n" + ngettext(
                "{unit} is in {state}: each branch's chance if its event happens (fire: {n} figure removed)",
                "{unit} is in {state}: each branch's chance if its event happens (fire: {n} figures removed)",
                unit.removed,
            ).format(unit=unit.unit, state=term(unit.state.value), n=unit.removed)
    ax.set_title(title, fontsize=11, loc="left")
    return out


__all__ = [
    "EVENT_SHORT",
    "NODE_COLOURS",
    "NODE_POSITIONS",
    "UnitBranches",
    "plot_morale_machine",
    "unit_branches",
]
