"""``szwadron points`` — the points model (issue 7), in three forms, each with its own ``--help``.

- ``szwadron points ARMYLIST [--roster ID|FILE] [--json] [--plot FILE]`` — points per figure of
  every profile with the breakdown of the formula (:mod:`szwadron.armies.points`); stored points that
  differ from the model are flagged. With ``--roster``, only the profiles it fields, and its
  totals checked against its limit and constraints.
- ``szwadron points calibrate [--seed N] [--rounds N] [--duels N] [--battles N] [--workers N]
  [--dry-run]`` — fit the coefficients and the duel corrections to simulated duels and battles
  of mixed armies, and rewrite the coefficients file and the ``points`` lines of the army lists
  (:mod:`szwadron.armies.calibrate`); the example rosters' new costs are listed, those over their limit
  flagged.
- ``szwadron points validate [--seed N] [--duels N] [--battles N] [--workers N] [--cover SHARE]
  [--flight] [--pairing POLICY] [--concentrate] [--json] [--plot FILE]`` — the round-robin of win rates at equal
  points (battles of standard units, simulated), with each cell's 95 % interval, the classes'
  blocks, the share no re-pricing could fix and the circles no prices can; then the example rosters
  army against army (:mod:`szwadron.armies.battles`), and the held-out rosters; with ``--cover``, a
  share of the units of those battles fights from scattered cover (4.10.3); with ``--flight``,
  those battles play flight and rally (6.6, 6.8); with ``--pairing``, the side with the initiative
  chooses its targets by a policy in those battles (2.1.4, 4.2.1, 5.2.1) instead of the dice
  pairing the units; with ``--concentrate``, the units a side has over join the engagements in
  those battles instead of waiting: several units fire at one target and fight one combined melee
  (4.2.2, 4.8.1, 5.10). All of them are the fields of one
  :class:`szwadron.armies.duel.BattleConditions`.

ARMYLIST is an army-list id (looked up like a scenario's lists) or a path to its TOML file.
``calibrate`` and ``validate`` are argparse sub-commands; any other word in their place is an army
list, parsed by the ``ARMYLIST`` form (:class:`_Forms`). An option of another form (``points
calibrate --roster X``) is bad input, reported with the form it belongs to (exit 2).
Long runs report progress on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from szwadron.i18n import N_, _, ngettext, pgettext, term

ACTIONS = ("calibrate", "validate")
#: The name under which the army-list form is registered beside the two actions.
ARMYLIST = "ARMYLIST"

#: Most duels per pair (and budget), calibration rounds, and worker processes per core: far
#: beyond any useful run, they keep a mistyped number from running for days or forking
#: thousands of processes.
MAX_DUELS = 100_000
MAX_ROUNDS = 100
MAX_WORKERS_PER_CORE = 4
#: Roster battles per pair in ``points validate`` (szwadron.armies.battles.DEFAULT_BATTLES; not
#: imported here, so that ``--help`` stays light).
DEFAULT_ROSTER_BATTLES = 200
#: Held-out random rosters per list and limit, and the exploit search's budget (rosters played),
#: of ``points validate`` (issue 14).
DEFAULT_HELD_OUT = 1
DEFAULT_SEARCH = 8
#: Most held-out rosters and search budget.
MAX_SEARCH = 10_000
#: ``points validate --pairing``: szwadron.armies.duel.PAIRINGS (not imported here, so that
#: ``--help`` stays light; a test keeps them equal).
PAIRINGS = ("random", "strongest", "weakest", "dangerous", "best")

if TYPE_CHECKING:
    from szwadron.armies.search import HeldOutRoster

    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class _AnyWord(dict[str, argparse.ArgumentParser]):
    """The choices of :class:`_Forms`: the named forms, and any other word (an army list)."""

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str)


class _Forms(_SubParsers):
    """The sub-commands of ``points``: ``calibrate``, ``validate``, or an army list.

    A word that names no sub-command is the ARMYLIST of the army-list form, so that
    ``szwadron points france --roster corps-1000`` reads as it always has."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        words = list(values)
        if words[0] not in ACTIONS:
            words = [ARMYLIST, *words]  # the army-list form parses the word as its ARMYLIST
        super().__call__(parser, namespace, words, option_string)


class MisplacedOption(argparse.Action):
    """An option of another form of ``points``, kept out of ``--help``: giving it records a
    message that :func:`run` reports as bad input (exit 2), naming the form it belongs to."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, message: str, nargs: int | None = None
    ) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,
            nargs=nargs,
            default=argparse.SUPPRESS,
            help=argparse.SUPPRESS,
        )
        self.message = message

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        if getattr(namespace, "misplaced", None) is None:
            namespace.misplaced = f"{option_string} {_(self.message)}"


def _misplaced(parser: argparse.ArgumentParser, message: str, *flags: str) -> None:
    """Accept ``flags`` (of another form) only to report them: ``--FLAG message``."""
    for flag in flags:
        nargs = 0 if flag in ("--dry-run", "--flight", "--concentrate") else None
        parser.add_argument(flag, action=MisplacedOption, message=message, nargs=nargs)


_JSON_HELP = "print a JSON document instead of the table (for scripts; its keys are stable)"
_SEED_HELP = "seed of the simulated dice: the same seed, the same numbers (default 2026)"
_LISTS_HELP = "folder of army-list TOML files to use (default: the six bundled lists)"
_EXECUTOR_HELP = (
    "where the battles run: 'process' (a process pool on this machine, the default) or 'dask' "
    "(a dask.distributed cluster: a local one, or the one of --scheduler; needs szwadron[dask]). "
    "The results are the same whatever the executor"
)
_SCHEDULER_HELP = "address of a running dask scheduler (tcp://host:8786); implies --executor dask"
_WORKERS_HELP = (
    f"worker processes running the battles in parallel (default: one per core; at most "
    f"{MAX_WORKERS_PER_CORE} per core)"
)


# long: a declaration: one add_argument per option with its help text, no logic.
def register(subparsers: Any) -> None:
    """Add the ``points`` command and its forms ``ARMYLIST``, ``calibrate`` and ``validate``."""
    parser = subparsers.add_parser(
        "points",
        help="points per figure from the points model; calibrate or validate it by simulated battles",
        description=(
            "Points per figure of an army list's profiles with their breakdown "
            "('points ARMYLIST'), or 'points calibrate' (fit the model to simulated battles and "
            "rewrite the stored points) or 'points validate' (win rates at equal points, "
            "simulated). Each has its own --help: 'szwadron points calibrate --help'."
        ),
    )
    parser.set_defaults(func=run, misplaced=None)
    forms = parser.add_subparsers(
        action=_Forms,
        dest="form",
        metavar="ARMYLIST|calibrate|validate",
        parser_class=type(parser),
    )
    forms.required = True

    price = forms.add_parser(
        ARMYLIST,
        prog=f"{parser.prog}",
        help="an army-list id (france, austria, ...) or its TOML file: points per figure of its "
        "profiles, with their breakdown (szwadron points ARMYLIST --help)",
        description=(
            "Points per figure of every profile of an army list, with the points each "
            "characteristic adds (offence: fire and melee together; W, morale, speed, special rules) to the "
            "reference line infantry's; a stored price that differs from the model is flagged "
            "STALE. With --roster, only the profiles the roster fields, its total against its "
            "points limit and every constraint it breaks."
        ),
    )
    price.add_argument(
        "target",
        metavar="ARMYLIST",
        help="an army-list id (france, britain, austria, russia, prussia, warsaw) or the path "
        "of an army-list TOML file",
    )
    price.add_argument(
        "--roster",
        metavar="ID|FILE",
        help="a roster: the id of one of the list's example rosters (corps-1000) or your own "
        "roster TOML file; prints only the profiles it fields, its total, broken constraints and "
        "where it stands on each limit of its list; exit 1 when it breaks its list",
    )
    price.add_argument("--json", action="store_true", help=_JSON_HELP)
    price.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw each profile's points as the factors of the formula: FILE.png, FILE.svg or FILE.pdf",
    )
    _misplaced(
        price,
        N_("applies only to 'points calibrate' and 'points validate'"),
        "--lists",
        "--seed",
        "--duels",
        "--battles",
        "--workers",
        "--model",
        "--executor",
        "--scheduler",
    )
    _misplaced(price, N_("applies only to 'points calibrate'"), "--rounds", "--dry-run")
    _misplaced(
        price,
        N_("does not apply to 'points ARMYLIST': it belongs to 'points validate'"),
        "--held-out",
        "--cover",
        "--flight",
        "--pairing",
        "--concentrate",
    )
    _misplaced(price, N_("applies only to 'points calibrate' and 'points validate'"), "--search")

    calibrate = forms.add_parser(
        "calibrate",
        help="refit the points to simulated duels and battles of mixed armies, and rewrite "
        "the army lists' points",
        description=(
            "Fit the points model's coefficients and each profile's correction to seeded "
            "simulated duels and battles of mixed armies, then rewrite the coefficients file "
            "and the 'points' line of every profile in the army lists (--dry-run: print only). "
            "The example rosters' new costs are listed; one over its limit is flagged. Long: "
            "minutes with the defaults; progress on stderr."
        ),
    )
    calibrate.add_argument("--lists", metavar="DIR", help=_LISTS_HELP + "; their points lines are rewritten")
    calibrate.add_argument("--seed", type=int, default=2026, metavar="N", help=_SEED_HELP)
    calibrate.add_argument(
        "--duels",
        type=int,
        metavar="N",
        help=f"simulated duels per pair of profiles (default 100, at most {MAX_DUELS})",
    )
    calibrate.add_argument(
        "--battles",
        type=int,
        metavar="N",
        help="simulated battles of random mixed armies per pair of lists and points budget "
        f"(default 300; 0: none, fit to duels alone; at most {MAX_DUELS})",
    )
    calibrate.add_argument(
        "--rounds",
        type=int,
        default=3,
        metavar="N",
        help=f"rounds of fitting, each re-pricing the armies of the next (default 3, at most {MAX_ROUNDS})",
    )
    calibrate.add_argument("--workers", type=int, metavar="N", help=_WORKERS_HELP)
    calibrate.add_argument(
        "--search",
        type=int,
        metavar="N",
        help="before the mixed-army battles, run the exploit search (N rosters played per list and points "
        "limit) and let each list's best find play in the mixed-army battles the points are fitted to "
        "(default: no search)",
    )
    calibrate.add_argument("--executor", choices=("process", "dask"), help=_EXECUTOR_HELP)
    calibrate.add_argument("--scheduler", metavar="ADDRESS", help=_SCHEDULER_HELP)
    calibrate.add_argument(
        "--dry-run", action="store_true", help="print the fitted model and the rosters' costs; write no file"
    )
    calibrate.add_argument(
        "--model",
        metavar="FILE",
        help="the coefficients file to write (default: the checkout's szwadron/data/points_model.toml, "
        "or DIR/points_model.toml with --out); its folder must exist",
    )
    calibrate.add_argument(
        "--out",
        metavar="DIR",
        help="write the recalibrated army lists (and the model) into this existing folder instead of "
        "rewriting them in place; required when they lie inside an installed szwadron, which is never "
        "rewritten",
    )
    calibrate.add_argument("--json", action="store_true", help=_JSON_HELP)
    _misplaced(
        calibrate, N_("does not apply to 'points calibrate': it belongs to 'points ARMYLIST'"), "--roster"
    )
    _misplaced(
        calibrate,
        N_("does not apply to 'points calibrate': it belongs to 'points validate'"),
        "--held-out",
        "--cover",
        "--flight",
        "--pairing",
        "--concentrate",
    )
    _misplaced(
        calibrate,
        N_("does not apply to 'points calibrate': it belongs to 'points ARMYLIST' and 'points validate'"),
        "--plot",
    )

    validate = forms.add_parser(
        "validate",
        help="measure how fair the points are: win rates at equal points, profile against "
        "profile and example roster against example roster",
        description=(
            "Play seeded simulated battles at equal points: every profile against every other "
            "(the round-robin, with each win rate's 95 % interval, the share within 45-55 % and "
            "the circles of profiles no prices can even), then every pair of example rosters of "
            "different lists at the same limit, and each list's units regrouped into other "
            "sizes. Long: minutes with the defaults; progress on stderr."
        ),
    )
    validate.add_argument("--lists", metavar="DIR", help=_LISTS_HELP)
    validate.add_argument("--seed", type=int, default=2026, metavar="N", help=_SEED_HELP)
    validate.add_argument(
        "--duels",
        type=int,
        metavar="N",
        help=f"simulated battles per pair of profiles and points budget (default 500, at most {MAX_DUELS})",
    )
    validate.add_argument(
        "--battles",
        type=int,
        metavar="N",
        help="simulated battles per pair of example rosters and per unit-size case (default "
        f"{DEFAULT_ROSTER_BATTLES}; 0: skip the rosters; at most {MAX_DUELS})",
    )
    validate.add_argument("--workers", type=int, metavar="N", help=_WORKERS_HELP)
    validate.add_argument(
        "--held-out",
        type=int,
        metavar="N",
        help=f"random legal rosters per list and points limit, never used in fitting, played against one "
        f"another and the example rosters (default {DEFAULT_HELD_OUT}; 0: skip the held-out check and the search)",
    )
    validate.add_argument(
        "--search",
        type=int,
        metavar="N",
        help=f"rosters the exploit search plays per list and limit, looking for the roster that wins most "
        f"against the other lists' example rosters; its best find joins the held-out set (default {DEFAULT_SEARCH})",
    )
    validate.add_argument(
        "--cover",
        metavar="SHARE",
        help="share of the units (0 to 1) that fight from scattered cover, bushes or rubble (W + 1 against "
        "fire, 4.10.3), drawn per battle, in the example rosters' and the held-out battles (default 0: open "
        "ground; the round-robin and the unit sizes are always on open ground)",
    )
    validate.add_argument(
        "--flight",
        action="store_true",
        help="play flight and rally (6.6, 6.8: a panicked unit flees towards its own edge and may "
        "reorganise and come back) in the example rosters' and the held-out battles (default: off, as in "
        "the calibration: a panicked unit is out of the battle; the round-robin and the unit sizes are "
        "always without)",
    )
    validate.add_argument(
        "--pairing",
        metavar="POLICY",
        help="who meets whom in the example rosters' and the held-out battles: 'random' (the default, as in "
        "the calibration: the dice pair the units, a meeting engagement), 'strongest' (most figures left "
        "first), or a target policy of the side with the initiative, which picks for each of its units "
        "the enemy unit with the fewest figures left ('weakest'), the one that threatens it most "
        "('dangerous') or the one it fares best against ('best'); the round-robin and the unit sizes are "
        "always random",
    )
    validate.add_argument(
        "--concentrate",
        action="store_true",
        help="concentrated fire and combined melee in the example rosters' and the held-out battles: when "
        "the lines are formed and one side has units over, they join the engagements instead of waiting "
        "(the dice, or the --pairing policy, choose which), several units firing at one target, each its "
        "own volley and the target testing after each (4.2.2, 4.8.1), and fighting one combined melee "
        "(5.10) (default: off, as in the calibration; the round-robin and the unit sizes are always "
        "without)",
    )
    validate.add_argument("--executor", choices=("process", "dask"), help=_EXECUTOR_HELP)
    validate.add_argument("--scheduler", metavar="ADDRESS", help=_SCHEDULER_HELP)
    validate.add_argument(
        "--model",
        metavar="FILE",
        help="the coefficients file to price the profiles by (default: the one shipped with szwadron)",
    )
    validate.add_argument("--json", action="store_true", help=_JSON_HELP)
    validate.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the matrix of win rates (and the rosters', and the held-out pairs as a histogram): FILE.png, FILE.svg or FILE.pdf",
    )
    _misplaced(
        validate, N_("does not apply to 'points validate': it belongs to 'points ARMYLIST'"), "--roster"
    )
    _misplaced(validate, N_("applies only to 'points calibrate'"), "--rounds", "--dry-run")
    forms.choices = _AnyWord(forms.choices)


#: The progress labels of szwadron.armies (English, as the library names its runs), for the catalog.
_LABELS = (
    N_("duels"),
    N_("validation"),
    N_("roster battles"),
    N_("unit-size battles"),
    N_("army steepness battles"),
    N_("held-out battles"),
    N_("exploit search"),
)


def _label(label: str) -> str:
    """A progress label of the library in the chosen language (``calibration round 2/3``, ...)."""
    import re

    m = re.fullmatch(r"(calibration round|mixed-army battles) (\d+)/(\d+)", label)
    if m:
        if m[1] == "calibration round":
            return _("calibration round {r}/{n}").format(r=m[2], n=m[3])
        return _("mixed-army battles {r}/{n}").format(r=m[2], n=m[3])
    m = re.fullmatch(r"exploit search (\S+) (\S+)", label)
    if m:
        return _("exploit search {army} {limit}").format(army=m[1], limit=m[2])
    return _(label)


def _exponent(name: str) -> str:
    """A continuous term of the points model (its column in the points table)."""
    words = {"offence": _("offence"), "wounds": _("wounds"), "morale": _("morale"), "speed": _("speed")}
    return words.get(name, term(name))


def _cls(name: str) -> str:
    """A class of units in the validation's report (szwadron.armies.calibrate, .battles)."""
    words = {
        "line": pgettext("unit class", "line"),
        "infantry": pgettext("unit class", "infantry"),
        "skirmishers": pgettext("unit class", "skirmishers"),
        "cavalry": pgettext("unit class", "cavalry"),
        "artillery": pgettext("unit class", "artillery"),
    }
    return words.get(name, name)


def _field_line(r: HeldOutRoster) -> str:
    """A roster's points and its rate against its field (a held-out or an example roster)."""
    from szwadron.cli._common import fmt_prob

    return _("{points} of {limit}: {rate} against its field").format(
        points=f"{r.points:7.1f}", limit=f"{r.roster.points_limit:g}", rate=f"{fmt_prob(r.field_rate):>6s}"
    )


def _source(name: str) -> str:
    """Where a held-out roster comes from (szwadron.armies.search)."""
    words = {
        "random": pgettext("roster source", "random"),
        "search": pgettext("roster source", "search"),
        "example": pgettext("roster source", "example"),
    }
    return words.get(name, name)


class _Progress:
    """Progress on stderr, at most a few lines a second."""

    def __init__(self) -> None:
        self.last = 0.0
        self.t0 = time.perf_counter()

    def __call__(self, done: int, total: int, label: str) -> None:
        now = time.perf_counter()
        if done not in (0, total) and now - self.last < 1.0:
            return
        self.last = now
        pct = 100.0 * done / total if total else 100.0
        if "search" in label:
            what = ngettext("{done}/{total} roster", "{done}/{total} rosters", total)
        elif "battle" in label:
            what = ngettext("{done}/{total} battle", "{done}/{total} battles", total)
        else:
            what = ngettext("{done}/{total} duel", "{done}/{total} duels", total)
        line = _("{label}: {count} ({pct}%), {seconds} s").format(
            label=_label(label),
            count=what.format(done=done, total=total),
            pct=f"{pct:.0f}",
            seconds=f"{now - self.t0:.1f}",
        )
        print(line, file=sys.stderr, flush=True)


def _positive(value: int | None, name: str, most: int) -> None:
    from szwadron.errors import InvalidDataError

    if value is not None and value < 1:
        raise InvalidDataError(_("{name} must be at least 1, got {value}").format(name=name, value=value))
    if value is not None and value > most:
        raise InvalidDataError(
            _("{name} must be at most {most}, got {value}").format(name=name, most=most, value=value)
        )


def _cover(text: str | None) -> float:
    """``--cover SHARE``: a number from 0 to 1 (default 0)."""
    from szwadron.errors import InvalidDataError

    if text is None:
        return 0.0
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:  # NaN too
        raise InvalidDataError(
            _("{name} must be a share of the units from 0 to 1 (0.25: a quarter), got {value}").format(
                name="--cover", value=repr(text)
            )
        )
    return value


def _pairing(text: str | None) -> str:
    """``--pairing POLICY``: one of :data:`PAIRINGS` (default ``random``)."""
    from szwadron.errors import InvalidDataError

    if text is None:
        return "random"
    if text == "nearest":  # issue 14 asked for it: say why there is none
        raise InvalidDataError(
            _(
                "{name} nearest has no meaning in the simulated battle: on its one-dimensional front every pair "
                "starts at the same distance; one of {choices}"
            ).format(name="--pairing", choices=", ".join(PAIRINGS))
        )
    if text not in PAIRINGS:
        raise InvalidDataError(
            _("{name} must be one of {choices}, got {value}").format(
                name="--pairing", choices=", ".join(PAIRINGS), value=repr(text)
            )
        )
    return text


def run(args: argparse.Namespace) -> int:
    """Run ``szwadron points`` in the form given: ARMYLIST, ``calibrate`` or ``validate``."""
    from szwadron.errors import InvalidDataError

    if args.misplaced:
        raise InvalidDataError(args.misplaced)
    plot = getattr(args, "plot", None)
    if plot:  # fail before any work (a validation runs for minutes): bad usage
        from szwadron.cli._common import check_output_path, input_files
        from szwadron.plots._io import figure_format

        figure_format(plot)
        check_output_path(plot, inputs=tuple(Path(f) for f in input_files(args)))
    if args.form == ARMYLIST:
        return _price(args)
    _positive(args.duels, "--duels", MAX_DUELS)
    if args.battles is not None:
        if not 0 <= args.battles <= MAX_DUELS:
            raise InvalidDataError(
                _("{name} must be between 0 and {most}, got {value}").format(
                    name="--battles", most=MAX_DUELS, value=args.battles
                )
            )
    _positive(getattr(args, "rounds", None), "--rounds", MAX_ROUNDS)
    _positive(args.workers, "--workers", MAX_WORKERS_PER_CORE * (os.cpu_count() or 1))
    _positive(getattr(args, "search", None), "--search", MAX_SEARCH)
    if args.form == "validate":
        args.cover = _cover(args.cover)
        args.pairing = _pairing(args.pairing)
    held_out = getattr(args, "held_out", None)
    if held_out is not None and not 0 <= held_out <= MAX_SEARCH:
        raise InvalidDataError(
            _("{name} must be between 0 and {most}, got {value}").format(
                name="--held-out", most=MAX_SEARCH, value=held_out
            )
        )
    from szwadron.armies.runs import open_executor

    kind = args.executor or ("dask" if args.scheduler else "process")
    if args.scheduler is not None and kind != "dask":
        raise InvalidDataError(_("--scheduler needs --executor dask"))
    with open_executor(kind, scheduler=args.scheduler, workers=args.workers) as executor:
        args.executor_object = executor
        return _calibrate(args) if args.form == "calibrate" else _validate(args)


def _roster(army: Any, spec: str) -> Any:
    from szwadron.armies.rosters import load_roster
    from szwadron.errors import InvalidDataError
    from szwadron.files import is_stdio
    from szwadron.loading import source_name

    path = Path(spec)
    if is_stdio(spec) or path.suffix.lower() == ".toml" or path.exists():
        list_of, roster = load_roster(spec)
        if list_of.id != army.id:
            raise InvalidDataError(
                _("roster {roster!r} is of army list {army!r}, not {expected!r}").format(
                    roster=roster.id, army=list_of.id, expected=army.id
                ),
                source=source_name(spec),
            )
        return roster
    try:
        return army.roster(spec)
    except KeyError:
        known = ", ".join(r.id for r in army.rosters) or _("none")
        raise InvalidDataError(
            _("unknown roster {roster!r} in army list {army!r} (it has: {known})").format(
                roster=spec, army=army.id, known=known
            )
        ) from None


def _army_source(target: str) -> str:
    """The file of the army list given as ``target`` (a path, ``-`` or an id), for messages."""
    from szwadron.files import is_stdio
    from szwadron.loading import army_list_search_path, find_army_list, source_name

    path = Path(target)
    if is_stdio(target) or path.suffix.lower() == ".toml" or path.exists():
        return source_name(target)
    found = find_army_list(target, army_list_search_path())
    return str(found) if found is not None else target


# long: the points command's report: one block per section (profiles, units, roster, stale warning).
def _price(args: argparse.Namespace) -> int:
    from szwadron.armies.points import format_points, load_model, price_profile
    from szwadron.armies.rosters import entry_costs, roster_standings, validate_roster
    from szwadron.cli._common import check_stale_points, print_json
    from szwadron.errors import InvalidDataError
    from szwadron.loading import open_army_list

    army = open_army_list(args.target)
    model = load_model()
    profiles = list(army.profiles)
    roster = report = costs = None
    standings: tuple[Any, ...] = ()
    if args.roster:
        roster = _roster(army, args.roster)
        fielded = {e.profile for e in roster.units} | {a.profile for e in roster.units for a in e.attached}
        report = validate_roster(army, roster)
        standings = roster_standings(army, roster)
        costs = entry_costs(army, roster)
        profiles = [p for p in profiles if p.id in fielded]
        check_stale_points(
            "points", [army], model, strict=False, fielded={army.id: fielded}, named={army.id: args.target}
        )
    rows = []
    for p in profiles:
        try:
            b = price_profile(p, model)
        except InvalidDataError as exc:  # issue 16: name the file and the profile
            k = army.profiles.index(p)
            raise InvalidDataError(
                _("profiles[{k}] (id {id!r}): {detail}").format(k=k, id=p.id, detail=exc.detail),
                source=_army_source(args.target),
            ) from None
        stale = p.points is None or abs(p.points - b.points) > 1e-9
        rows.append((p, b, stale))
    if args.plot:
        from szwadron.plots.points import plot_breakdown_file

        title = _("Points per figure: {army}").format(army=army.name)
        if roster is not None:  # the profiles the roster fields, and its cost
            title = _("Points per figure: {army}\nthe profiles of roster {roster} ({points} points)").format(
                army=army.name,
                roster=roster.id,
                points=f"{report.points:g}" if report and report.points is not None else "?",
            )
        plot_breakdown_file([b for _, b, _ in rows], args.plot, title=title)
    if args.json:
        doc: dict[str, Any] = {
            "army": army.id,
            "model": {
                "version": model.version,
                "reference_points": model.reference_points,
                "step": model.step,
            },
            "profiles": [
                {**b.to_json(), "stored": p.points, "stale": stale, "name": p.name} for p, b, stale in rows
            ],
            "size_prices": [sp.model_dump(mode="json") for sp in army.size_prices],
        }
        if report is not None:
            doc["roster"] = {
                "id": report.roster,
                "units": report.units,
                "figures": report.figures,
                "points": report.points,
                "points_limit": report.points_limit,
                "ok": report.ok,
                "broken": [str(x) for x in report.broken],
                "unchecked": [str(x) for x in report.unchecked],
                "standings": [x.to_json() for x in standings],
                "entries": None if costs is None else [x.to_json() for x in costs],
            }
        print_json(doc)
        return 0 if report is None or report.ok else 1
    print(
        _("{army} ({id}): points per figure, model {version} (reference line infantry = {reference})").format(
            army=army.name,
            id=army.id,
            version=model.version or _("unversioned"),
            reference=format_points(model.reference_points),
        )
    )
    header = [
        _("profile"),
        _("kind"),
        _("points"),
        _("offence"),
        _("wounds"),
        _("morale"),
        _("speed"),
        _("kind/abilities"),
        "",
    ]
    table = [header]
    for p, b, stale in rows:
        terms = {t.name: t for t in b.terms}
        others = [t for t in b.terms if t.name not in ("offence", "wounds", "morale", "speed")]
        extra = [f"{term(t.name)} ×{t.factor:.2f}" for t in others]
        if others:
            extra[0] = f"{sum(t.points for t in others):+.1f} ({extra[0]}"
            extra[-1] += ")"
        cells = [p.id, term(p.kind.value), format_points(b.points)]
        for name in ("offence", "wounds", "morale", "speed"):
            t = terms.get(name)
            cells.append("" if t is None else f"{t.points:+.1f}")
        cells.append(
            ", ".join(extra) if b.terms else (_("limber: in the gun's speed (7.2)") if not b.terms else "")
        )
        note = ""
        if stale:
            note = _("STALE: file has {points}").format(
                points=format_points(p.points) if p.points is not None else _("none")
            )
        cells.append(note)
        table.append(cells)
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        print(
            "  ".join(
                c.ljust(w) if i in (0, 1, 7, 8) else c.rjust(w)
                for i, (c, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
    print(
        _(
            "(columns: points added by each term, from the reference {reference}; see szwadron.armies.points)"
        ).format(reference=format_points(model.reference_points))
    )
    if army.size_prices:
        print(_("unit-size prices (a unit's own figures; the first that selects it applies):"))
        for sp in army.size_prices:
            selects = [
                *sp.profiles,
                *(term(k.value) for k in sp.kinds),
                *(term(a.value) for a in sp.abilities),
            ]
            print(
                "  "
                + _("{id} ({selects}): ×(1 + {per} × (figures − {ref}))").format(
                    id=sp.id, selects=", ".join(selects), per=f"{sp.per_figure:g}", ref=sp.reference_figures
                )
            )
    if report is not None:
        print()
        if costs:
            print(_("the roster's units, what each costs:"))
            for x in costs:
                print(f"  {x}")
        print(report.describe())
        if standings:
            print(_("where it stands on each limit of its list:"))
            for x in standings:
                print(f"  {x}")
        if not report.ok:
            return 1  # the question "is this roster legal?" answered no
    return 0


# long: the calibrate command: options to arguments, progress, then the report and the files written.
def _calibrate(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from szwadron.armies.calibrate import CalibrationConfig, army_list_paths, regenerate
    from szwadron.armies.points import format_points
    from szwadron.cli._common import print_json

    paths = army_list_paths(args.lists)
    config = CalibrationConfig(
        seed=args.seed, rounds=args.rounds, duels_per_pair=args.duels or 100, search=args.search or 0
    )
    if args.battles is not None:  # mixed-army battles, and as many (up to the default) for the steepness
        config = replace(
            config, mixed_battles=args.battles, army_battles=min(args.battles, config.army_battles)
        )
    done = regenerate(
        paths,
        config,
        model_path=args.model,
        executor=args.executor_object,
        workers=args.workers,
        progress=_Progress(),
        write=not args.dry_run,
        out_dir=args.out,
    )
    model, cal = done.model, done.calibration
    if args.json:
        print_json(
            {
                "model": {
                    "melee_weight": model.melee_weight,
                    "exponents": model.exponents,
                    "kinds": model.kinds,
                    "abilities": model.abilities,
                    "reference_points": model.reference_points,
                    "steepness": model.steepness,
                    "army_steepness": list(model.army_steepness) if model.army_steepness else None,
                    "corrections": model.corrections,
                },
                "duels": cal.duels,
                "seconds": cal.seconds,
                "seed": args.seed,
                "written": not args.dry_run,
                "changed": [str(p) for p in done.changed],
                "rosters": [
                    {"army": a, "roster": r, "points": c, "points_limit": lim, "artillery_share": s}
                    for a, r, c, lim, s in done.rosters
                ],
            }
        )
        return 0
    print(
        _(
            "calibrated on {duels} duels between {profiles} duel profiles in {seconds} s (seed {seed}, {rounds} rounds)"
        ).format(
            duels=cal.duels,
            profiles=len(cal.entries),
            seconds=f"{cal.seconds:.1f}",
            seed=args.seed,
            rounds=args.rounds,
        )
    )
    print(
        "  "
        + _("melee weight μ = {mu}; exponents: {exponents}").format(
            mu=f"{model.melee_weight:g}",
            exponents=", ".join(f"{_exponent(k)} {v:.3f}" for k, v in model.exponents.items()),
        )
    )
    print(
        "  "
        + _("kinds: {kinds}; abilities: {abilities}").format(
            kinds=", ".join(f"{term(k)} ×{_exp(v):.2f}" for k, v in model.kinds.items()),
            abilities=", ".join(f"{term(k)} ×{_exp(v):.2f}" for k, v in model.abilities.items()),
        )
    )
    army = ""
    if model.army_steepness:
        army = _(", army against army κ = {k} · units^{e} ({at10} at 10 units a side)").format(
            k=f"{model.army_steepness[0]:.2f}",
            e=f"{model.army_steepness[1]:.2f}",
            at10=f"{model.steepness_for(10):.1f}",
        )
    print(
        "  "
        + _("steepness κ = {k} (unit against unit){army}; reference line infantry = {points} points").format(
            k=f"{model.steepness:.3f}", army=army, points=format_points(model.reference_points)
        )
    )
    for a, r, c, lim, s in done.rosters:
        over = "  " + _("OVER THE LIMIT: rebuild this roster") if lim is not None and c > lim + 1e-9 else ""
        line = _("{points} of {limit} points, artillery {share}").format(
            points=format_points(round(c, 6)), limit=format_points(lim) if lim else "-", share=f"{s:.0%}"
        )
        print(f"  {a}:{r}: {line}{over}")
    if args.dry_run:
        print(_("dry run: nothing written"))
    else:
        print(
            _("wrote the coefficients and the points of {n} changed army list(s)").format(n=len(done.changed))
        )
    return 0


def _exp(x: float) -> float:
    import math

    return math.exp(x)


# long: the validate command: options to arguments, then the report's sections in order.
def _validate(args: argparse.Namespace) -> int:
    from szwadron.armies.calibrate import BAND, army_list_paths, load_lists, validate
    from szwadron.armies.points import load_model
    from szwadron.cli._common import fmt_prob, print_json

    armies = load_lists(army_list_paths(args.lists))
    model = load_model(args.model)
    progress = _Progress()
    result = validate(
        armies,
        model=model,
        duels_per_budget=args.duels or 500,
        seed=args.seed,
        executor=args.executor_object,
        workers=args.workers,
        progress=progress,
    )
    from szwadron.armies.duel import BattleConditions

    conditions = BattleConditions(
        cover=args.cover, flight=args.flight, pairing=args.pairing, concentrate=args.concentrate
    )
    battles = DEFAULT_ROSTER_BATTLES if args.battles is None else args.battles
    rosters = None
    sizes: list[Any] = []
    if battles:
        from szwadron.armies.battles import size_check_cases, unit_size_effect, validate_rosters

        rosters = validate_rosters(
            armies,
            battles=battles,
            seed=args.seed,
            model=model,
            executor=args.executor_object,
            workers=args.workers,
            progress=progress,
            conditions=conditions,
        )
        sizes = unit_size_effect(
            size_check_cases(armies),
            battles=battles,
            seed=args.seed,
            executor=args.executor_object,
            workers=args.workers,
            progress=progress,
        )
    held = None
    n_held = DEFAULT_HELD_OUT if args.held_out is None else args.held_out
    if battles and n_held:
        from szwadron.armies.search import held_out_validation

        held = held_out_validation(
            armies,
            random_rosters=n_held,
            search=args.search or DEFAULT_SEARCH,
            battles=battles,
            seed=args.seed,
            executor=args.executor_object,
            workers=args.workers,
            progress=progress,
            conditions=conditions,
        )
    if args.plot:
        from szwadron.plots.points import plot_matrix_file

        plot_matrix_file(result, args.plot, rosters, held)
    if args.json:
        doc = result.to_json()
        doc["rosters"] = rosters.to_json() if rosters is not None else None
        doc["unit_sizes"] = [e.to_json() for e in sizes]
        doc["held_out"] = held.to_json() if held is not None else None
        if held is not None:
            from szwadron.armies.rosters import caps_on_points

            by_id = {a.id: a for a in armies}
            for found, out in zip(held.searches, doc["held_out"]["searches"], strict=True):
                out["caps"] = [x.to_json() for x in caps_on_points(by_id[found.army], found.roster)]
        print_json(doc)
        return 0
    lo, hi = BAND
    per_cell = result.duels // max(len(result.cells), 1)
    print(
        _(
            "round-robin at equal points (simulated: {duels} duels, {per} a matchup, seed {seed}, {seconds} s); "
            "budgets {budgets} points"
        ).format(
            duels=result.duels,
            per=per_cell,
            seed=result.seed,
            seconds=f"{result.seconds:.1f}",
            budgets=", ".join(f"{b:g}" for b in result.budgets),
        )
    )
    print(
        _(
            "matchups with a win rate within {band}: {share} of {n} distinct matchups, {all} of all profile pairs; "
            "95% interval inside the band: {ci}"
        ).format(
            band=f"{lo:.0%}–{hi:.0%}",
            share=f"{result.share_in_band:.1%}",
            n=len(result.cells),
            all=f"{result.share_in_band_all_profiles:.1%}",
            ci=f"{result.share_ci_in_band:.1%}",
        )
    )
    intr = result.intransitive()
    print(
        _(
            "{what}; root mean square of (win rate − 50%): {rms}; after removing what re-pricing could fix "
            "(a strength per profile): {residual}, {share} of matchups in the band"
        ).format(
            what=_("battles of standard units") if result.battle else _("one unit a side"),
            rms=f"{intr.rms:.1%}",
            residual=f"{intr.residual_rms:.1%}",
            share=f"{intr.share_in_band_repriced:.1%}",
        )
    )
    circles = result.circles()
    if circles:
        print(
            _(
                "no prices can bring every matchup into the band: {n} triples of profiles beat one another "
                "in a circle (at least {share} of the matchups stay outside at any points), for example:"
            ).format(n=len(circles), share=f"{len(circles) / len(result.cells):.1%}")
        )
        names = [x.label for x in result.entries]
        for i, j, k in circles[:3]:
            print(
                f"  {names[i]} v {names[j]}: {fmt_prob(result.rate(i, j))}, {names[j]} v {names[k]}: "
                f"{fmt_prob(result.rate(j, k))}, {names[k]} v {names[i]}: {fmt_prob(result.rate(k, i))}"
            )
    print(_("by class (win rate of the first; share in the band):"))
    for (a, b), (n, r, x) in result.blocks().items():
        line = _("{n} matchups, {rate}; {share} in the band").format(n=n, rate=fmt_prob(r), share=f"{x:.0%}")
        print(f"  {_cls(a)} v {_cls(b)}: {line}")
    print(_("mean win rate of each duel profile against all others:"))
    pts = _("pts")
    for e, p, r in zip(result.entries, result.points, result.profile_rates(), strict=True):
        same = f" (= {', '.join(e.members[1:])})" if len(e.members) > 1 else ""
        print(f"  {e.label:32s} {p:6.1f} {pts}  {fmt_prob(r):>6s}{same}")
    print(_("furthest from even:"))
    for c in result.worst(15):
        a, b = result.entries[c.row].label, result.entries[c.col].label
        ci = c.interval
        figs = ", ".join(f"{x} v {y}" for x, y in c.figures)
        line = _("(figures {figures})").format(figures=figs)
        print(f"  {a} v {b}: {fmt_prob(c.rate)} [{fmt_prob(ci[0])}, {fmt_prob(ci[1])}] {line}")
    if args.cover and (rosters is not None or held is not None):
        print(
            _(
                "units in cover (bushes, rubble: W + 1 against fire, 4.10.3): {share} of each side's units, "
                "drawn per battle, in the example rosters' and the held-out battles; the round-robin and the "
                "unit sizes on open ground"
            ).format(share=f"{args.cover:.0%}")
        )
    if args.flight and (rosters is not None or held is not None):
        print(
            _(
                "flight and rally (6.6, 6.8): a panicked unit flees and may reorganise and come back, in the "
                "example rosters' and the held-out battles; the round-robin and the unit sizes without"
            )
        )
    if args.pairing != "random" and (rosters is not None or held is not None):
        print(
            _(
                "pairing in the example rosters' and the held-out battles: {policy} ({what}); the round-robin "
                "and the unit sizes paired by the dice"
            ).format(policy=args.pairing, what=_(_PAIRING_WORDS[args.pairing]))
        )
    if args.concentrate and (rosters is not None or held is not None):
        print(
            _(
                "concentrated fire and combined melee (4.2.2, 4.8.1, 5.10): the units a side has over join "
                "the engagements, in the example rosters' and the held-out battles; the round-robin and the "
                "unit sizes without"
            )
        )
    if rosters is not None:
        _print_rosters(rosters)
    if sizes:
        _print_sizes(sizes)
    if held is not None:
        _print_held_out(held, armies)
    return 0


#: What each ``--pairing`` means, for the report's line.
_PAIRING_WORDS = {
    "strongest": N_("each side's units lined up by figures left, the strongest meet first"),
    "weakest": N_(
        "the side with the initiative picks for each of its units the enemy unit with the fewest figures left"
    ),
    "dangerous": N_(
        "the side with the initiative picks for each of its units the enemy unit that threatens it most: "
        "the most figures it removes with one volley or charge"
    ),
    "best": N_(
        "the side with the initiative picks for each of its units the enemy unit against which its exact "
        "odds are best"
    ),
}


def _print_without_dice(share: float | None, battles: int) -> None:
    """The share of pairs whose chance is in the band, the dice taken out
    (:func:`szwadron.armies.spread.share_without_dice`): what the measured share understates."""
    from szwadron.armies.calibrate import BAND

    lo, hi = BAND
    if share is None:
        print(
            "  "
            + _(
                "the dice of {battles} battles a pair cannot be taken out of these rates: play more battles "
                "a pair to tell how many pairs have a chance within {band}"
            ).format(battles=battles, band=f"{lo:.0%}–{hi:.0%}")
        )
        return
    print(
        "  "
        + _(
            "with the dice of {battles} battles a pair taken out: {share} of the pairs have a chance "
            "within {band} (an estimate; more battles a pair measure it directly)"
        ).format(battles=battles, share=f"{share:.1%}", band=f"{lo:.0%}–{hi:.0%}")
    )


# long: the held-out report in its order: pairs, spread, example rosters, strongest roster, each search find and its caps.
def _print_held_out(held: Any, armies: Sequence[Any]) -> None:
    """The held-out part of ``points validate`` (szwadron.armies.search)."""
    from szwadron.armies.calibrate import BAND
    from szwadron.armies.rosters import caps_on_points
    from szwadron.cli._common import fmt_prob

    lo, hi = BAND
    if not held.pairs:
        print(
            _(
                "held out: no two lists with example rosters of the same points limit; no held-out rosters to play"
            )
        )
        return
    print(
        _(
            "held out (rosters never used in fitting: random legal draws and the exploit search's finds, "
            "against one another and the example rosters of other lists at the same limit; {battles} "
            "battles a pair, {seconds} s):"
        ).format(battles=held.battles, seconds=f"{held.seconds:.1f}")
    )
    print(
        _(
            "pairs with a win rate within {band}: {share} of {n}; root mean square of (win rate − 50%): {rms}"
        ).format(
            band=f"{lo:.0%}–{hi:.0%}",
            share=f"{held.share_in_band:.1%}",
            n=len(held.pairs),
            rms=f"{held.rms:.1%}",
        )
    )
    _print_without_dice(held.share_without_dice, held.battles)
    spread = held.spread
    if spread is not None:
        print(
            _(
                "where the spread comes from: {roster} how strong a roster is against the whole field (the "
                "points could move it), {matchups} matchups (no price can), {dice} the dice"
            ).format(
                roster=f"{spread.roster:.0%}", matchups=f"{spread.matchups:.0%}", dice=f"{spread.dice:.0%}"
            )
        )
    ceiling = held.ceiling
    if ceiling is not None:
        print(
            _(
                "were every roster even against its field, {share} of the pairs would be within {band} "
                "(what the matchups and the dice leave, whatever the points)"
            ).format(share=f"{ceiling:.1%}", band=f"{lo:.0%}–{hi:.0%}")
        )
    width = max(len(r.label) for r in held.rosters)
    for r in sorted(held.rosters, key=lambda r: -r.field_rate):
        print(f"  {r.label:<{width}} {_source(r.source):6s} {_field_line(r)}")
    if held.examples:
        print(
            _(
                "example rosters against the held-out rosters (one a few points off its 50% is evened by "
                "scripts/even_roster.py):"
            )
        )
        width = max(len(r.label) for r in held.examples)
        for r in sorted(held.examples, key=lambda r: -r.field_rate):
            print(f"  {r.label:<{width}} {_field_line(r)}")
    worst = held.worst
    if worst is not None:
        print(
            _("strongest held-out roster: {label} ({source}), {rate} against its field").format(
                label=worst.label, source=_source(worst.source), rate=fmt_prob(worst.field_rate)
            )
        )
    for s in held.searches:
        print(
            "  "
            + _(
                "exploit search {army} {limit}: {n} rosters played; best {best} against the example rosters "
                "(95% interval {low}–{high} over {battles} fresh battles; {rate} in the search)"
            ).format(
                army=s.army,
                limit=f"{s.limit:g}",
                n=s.evaluated,
                best=fmt_prob(s.confirmed),
                low=fmt_prob(s.interval[0]),
                high=fmt_prob(s.interval[1]),
                battles=s.battles,
                rate=fmt_prob(s.rate),
            )
        )
        caps = caps_on_points(next(a for a in armies if a.id == s.army), s.roster)[:2]
        if caps:
            print("    " + _("nearest its caps: {caps}").format(caps=" · ".join(str(x) for x in caps)))


def _print_sizes(sizes: Sequence[Any]) -> None:
    """The unit-size part of ``points validate`` (szwadron.armies.battles.unit_size_effect)."""
    from szwadron.cli._common import fmt_prob

    print(
        _(
            "unit size at equal points: each list's largest roster with its line (battalions without an elite "
            "company) or its cavalry regrouped into units of another size, the same figures and points, against "
            "itself as fielded ({battles} battles each; the lists cap infantry units at 12 figures):"
        ).format(battles=sizes[0].battles)
    )
    rows: dict[str, list[str]] = {}
    for e in sizes:
        lo, hi = e.interval
        rows.setdefault(f"{e.army}:{e.roster}", []).append(
            _("{cls} of {size}").format(cls=_cls(e.cls), size=e.size)
            + f" {fmt_prob(e.rate)} [{fmt_prob(lo)}, {fmt_prob(hi)}]"
        )
    width = max(len(k) for k in rows)
    for label, cells in rows.items():
        print(f"  {label:<{width}}  " + "; ".join(cells))


def _print_rosters(result: Any) -> None:
    """The army-against-army part of ``points validate`` (szwadron.armies.battles)."""
    from szwadron.armies.calibrate import BAND
    from szwadron.cli._common import fmt_prob

    lo, hi = BAND
    if not result.cells:
        print(
            _(
                "army against army: no two example rosters of different lists share a points limit; nothing to play"
            )
        )
        return
    per = result.battles // len(result.cells)
    print(
        _(
            "army against army: every pair of example rosters of different lists and the same limit "
            "({battles} battles, {per} a pair, units meeting at random, {seconds} s)"
        ).format(battles=result.battles, per=per, seconds=f"{result.seconds:.1f}")
    )
    print(
        _(
            "pairs with a win rate within {band}: {share} of {n}; 95% interval inside the band: {ci}; "
            "root mean square of (win rate − 50%): {rms}"
        ).format(
            band=f"{lo:.0%}–{hi:.0%}",
            share=f"{result.share_in_band:.1%}",
            n=len(result.cells),
            ci=f"{result.share_ci_in_band:.1%}",
            rms=f"{result.rms:.1%}",
        )
    )
    _print_without_dice(result.share_without_dice, per)
    width = max(len(s.label) for s in result.sides)
    for c in result.cells:
        a, b = result.sides[c.a], result.sides[c.b]
        ci = c.interval
        mark = "" if c.in_band else "  " + _("(outside the band)")
        predict = _("points predict {rate}").format(rate=fmt_prob(c.predicted))
        print(
            f"  {a.label:<{width}} {a.points:7.1f} v {b.label:<{width}} {b.points:7.1f}: "
            f"{fmt_prob(c.rate):>6s} [{fmt_prob(ci[0])}, {fmt_prob(ci[1])}]; {predict}{mark}"
        )
    first = result.first_mover
    if first is not None:
        flo, fhi = first.interval
        print(
            _(
                "the side moving first (the initiative, 2.1.4; alternating) scores {score} of these {battles} battles "
                "(95% interval {lo}–{hi}; per pair {low}–{high})"
            ).format(
                score=fmt_prob(first.rate),
                battles=first.battles,
                lo=fmt_prob(flo),
                hi=fmt_prob(fhi),
                low=fmt_prob(first.low),
                high=fmt_prob(first.high),
            )
        )


__all__ = ["ACTIONS", "ARMYLIST", "MisplacedOption", "register", "run"]
