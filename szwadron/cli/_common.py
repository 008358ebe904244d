"""Helpers shared by the command modules: JSON printing and the formatting of chances.

Output files are written by :mod:`szwadron.files` (re-exported here for the commands).

Standard library only at import time (the CLI starts fast).
"""

from __future__ import annotations

import argparse
import json
import math
from fractions import Fraction
from typing import Any

from szwadron import SCHEMA_VERSION
from szwadron.files import check_output_path, write_atomic
from szwadron.i18n import _, ngettext


def _default(obj: Any) -> Any:
    if isinstance(obj, Fraction):
        return float(obj)
    if hasattr(obj, "tolist"):  # numpy arrays and scalars
        return obj.tolist()
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def dumps_json(document: Any) -> str:
    """A stable JSON text: sorted keys are *not* used (key order is part of the contract),
    NaN is refused, Fractions become floats."""
    return json.dumps(document, indent=2, default=_default, allow_nan=False)


def print_json(document: dict[str, Any]) -> None:
    """Print a ``--json`` document on stdout, ``"schema_version"`` first (its JSON Schema is in
    ``schemas/output/``, see :mod:`szwadron.documents`)."""
    print(dumps_json({"schema_version": SCHEMA_VERSION, **document}))


def base_list(text: str) -> list[str]:
    """An argparse type: a comma list of bases (``UNIT/INDEX`` or ``INDEX``)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("expected a comma list of bases: UNIT/INDEX or INDEX")
    for part in parts:  # issue 16: "-1" is no base, not "no unit '-1'"
        unit, slash, index = part.rpartition("/")
        if not index.isdigit() or not index.isascii() or (slash and not unit):
            raise argparse.ArgumentTypeError(
                f"{part!r} is not a base: give UNIT/INDEX or INDEX, an index being a whole number ≥ 0"
                " (the first base of a unit is 0)"
            )
    return parts


#: Options that name an output, not an input.
_OUTPUT_OPTIONS = frozenset({"plot", "output", "out", "log"})


def input_files(args: argparse.Namespace) -> tuple[str, ...]:
    """The files a command line reads (every argument naming an existing file, outputs aside):
    an output given as one of them is refused before any work (issue 16)."""
    from pathlib import Path

    found: list[str] = []
    for key, value in vars(args).items():
        if key in _OUTPUT_OPTIONS or callable(value):
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v and v != "-":
                try:
                    if Path(v).is_file():
                        found.append(v)
                except OSError:
                    continue
    return tuple(found)


def fmt_prob(p: float) -> str:
    """A probability for humans: percent with enough digits to tell small values from zero;
    below 0.001 % in scientific notation (issue 16: ``8.67e-15%``, not ``0.00000000000000867%``).

    >>> fmt_prob(0.5), fmt_prob(0.000123), fmt_prob(0.0), fmt_prob(1.0), fmt_prob(0.99996)
    ('50.0%', '0.0123%', '0', '100%', '99.996%')
    >>> fmt_prob(1 - 1e-16), fmt_prob(8.67e-17), fmt_prob(2.5e-6)
    ('>99.9999%', '8.67e-15%', '0.000250%')
    """
    if p <= 0:
        return "0"
    if p >= 1:
        return "100%"
    pct = 100.0 * p
    if pct > 99.9:  # show how far from certain: 99.99%, not 100.0%
        digits = max(1, -math.floor(math.log10(100.0 - pct)))
        if digits > 4:
            return ">99.9999%"
        return f"{pct:.{digits}f}%"
    if pct >= 0.1:
        return f"{pct:.1f}%"
    if pct < 1e-4:
        return f"{pct:.2e}%"
    digits = max(1, 2 - math.floor(math.log10(pct)))
    return f"{pct:.{digits}f}%"


#: Rows of a distribution table whose chances are all below this are folded into one line.
FOLD_BELOW = 1e-4


def format_pmf_table(
    columns: dict[str, list[float]], *, index: str = "k", min_p: float = FOLD_BELOW, show_all: bool = False
) -> str:
    """A compact table of distributions: one row per count k, one column per list.

    Runs of rows where every chance of exactly ``k`` (the columns without ``≥``/``≤`` in their
    name) is below ``min_p`` (0.01 %) are folded into one line that gives each column's sum over
    them (issue 16: a 1000-dice volley is some fifty lines, not 559); ``show_all`` prints every row.
    Missing entries print as blank.

    >>> print(format_pmf_table({"P(=k)": [0.25, 0.5, 0.25], "P(≥k)": [1.0, 0.75, 0.25]}))
    k  P(=k)  P(≥k)
    0  25.0%   100%
    1  50.0%  75.0%
    2  25.0%  25.0%
    >>> pmf = [1e-9, 2e-9, 0.5, 0.5 - 4e-9, 1e-9]
    >>> print(format_pmf_table({"P(=k)": pmf, "P(≥k)": [1.0, 1.0, 1.0, 0.5, 1e-9]}))
    k        P(=k)      P(≥k)
    0–1  3.00e-07%             (2 rows each below 0.01%: their sum)
    2        50.0%       100%
    3        50.0%      50.0%
    4    1.00e-07%  1.00e-07%
    """
    length = max((len(v) for v in columns.values()), default=0)
    point = [not any(c in name for c in "≥≤") for name in columns]

    def small(k: int) -> bool:
        return all(
            not pt or k >= len(v) or v[k] < min_p for pt, v in zip(point, columns.values(), strict=True)
        )

    header = [index, *columns]
    rows: list[list[str]] = []
    k = 0
    while k < length:
        end = k
        while not show_all and end < length and small(end):
            end += 1
        if end - k >= 2:  # fold the run k .. end-1
            sums = [sum(v[k:end]) if pt else None for pt, v in zip(point, columns.values(), strict=True)]
            cells = ["" if t is None else fmt_prob(t) for t in sums]
            note = ngettext(
                "({n} row each below {p}%: their sum)", "({n} rows each below {p}%: their sum)", end - k
            ).format(n=end - k, p=f"{min_p * 100:g}")
            rows.append([f"{k}–{end - 1}", *cells, note])
            k = end
            continue
        rows.append([str(k), *(fmt_prob(v[k]) if k < len(v) else "" for v in columns.values())])
        k += 1
    n = len(header)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(n)]
    lines = []
    for r in [header, *rows]:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:n], widths[1:], strict=True)]
        if len(r) > n:  # a folded run: its note after the columns
            cells.append(r[n])
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def check_stale_points(
    command: str, armies: Any, model: Any, *, strict: bool, fielded: Any = None, named: Any = None
) -> None:
    """Warn on stderr (or, ``strict``, refuse: exit 2) when army lists store points that the
    points model no longer gives (issue 16): a command that uses stored points answers with
    them, so the user should know they are stale. ``fielded``: ``{army id: profile ids}`` to
    look at (default: every profile); ``named``: ``{army id: how the user named it}`` (a file's
    path), so that the hint shows the very list. Profiles storing no points are priced by the
    model and are not stale here. ``szwadron points LIST`` shows them; ``points calibrate``
    rewrites them."""
    import sys

    from szwadron.armies.points import stale_points
    from szwadron.errors import InvalidDataError

    stale = []
    for army in armies:
        wanted = None if fielded is None else fielded.get(army.id)
        stale += [
            s
            for s in stale_points(army, model)
            if s.stored is not None and (wanted is None or s.profile in wanted)
        ]
    if not stale:
        return
    more = "; " + _("and {n} more").format(n=len(stale) - 3) if len(stale) > 3 else ""
    shown = "; ".join(str(s) for s in stale[:3]) + more
    lists = " ".join(sorted({(named or {}).get(s.army, s.army) for s in stale}))
    what = _("stale points: {shown} (see `szwadron points {lists}`)").format(shown=shown, lists=lists)
    if strict:
        raise InvalidDataError(_("{what}; --strict refuses to answer with them").format(what=what))
    print(
        _("szwadron {command}: warning: {what}; the answer uses the stored points").format(
            command=command, what=what
        ),
        file=sys.stderr,
    )


__all__ = [
    "base_list",
    "check_output_path",
    "dumps_json",
    "fmt_prob",
    "format_pmf_table",
    "input_files",
    "print_json",
    "write_atomic",
]
