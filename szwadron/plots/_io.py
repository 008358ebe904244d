"""Figures for files: the format from the suffix, a headless figure, an atomic write.

The command line draws on figures made by :func:`new_figure` — plain
:class:`matplotlib.figure.Figure` objects on an Agg canvas, never registered with pyplot, so no
GUI backend is ever touched — and writes them with :func:`save_figure`, which goes through
:func:`szwadron.files.write_atomic`: a failed write leaves no partial file and an input
file is never overwritten.

Standard library only at import time; matplotlib is imported inside the functions.

>>> figure_format("table.PNG"), figure_format("odds.svg"), figure_format("x.pdf")
('png', 'svg', 'pdf')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from szwadron.errors import InvalidDataError
from szwadron.files import check_output_path, is_stdio, write_atomic, write_stdout
from szwadron.i18n import current_language, gettext

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Output formats by file suffix (lower case).
FORMATS: dict[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}

#: Dots per inch of PNG output (vector formats ignore it for their geometry).
DEFAULT_DPI = 100

#: Metadata that would change from run to run (dates, versions): left out so that the same
#: picture gives the same file.
_STABLE_METADATA: dict[str, dict[str, Any]] = {
    "png": {"Software": None},
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "Creator": None, "Producer": None},
}


def figure_format(path: str | Path) -> str:
    """The image format of an output path, from its suffix: ``png``, ``svg`` or ``pdf``.

    Raises
    ------
    InvalidDataError
        Any other suffix (the message lists the valid ones).

    >>> figure_format("battle.toml")
    Traceback (most recent call last):
    ...
    szwadron.errors.InvalidDataError: battle.toml: unknown picture format '.toml'; expected .png, .svg or .pdf
    """

    if is_stdio(path):  # standard output: only where a command offers it (``plot -o -``)
        check_output_path(path)
    suffix = Path(path).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        shown = f"{suffix!r}" if suffix else gettext("(no suffix)")
        raise InvalidDataError(
            gettext("{path}: unknown picture format {shown}; expected .png, .svg or .pdf").format(
                path=path, shown=shown
            )
        )
    return fmt


def use_agg() -> None:
    """Select the non-interactive Agg backend, unless pyplot is already in use.

    Called by the command line before anything draws, so that no GUI toolkit is ever loaded
    (a server or a CI runner has no display). A program that has already imported pyplot keeps
    its backend.
    """
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")


def new_figure(width_in: float, height_in: float, *, dpi: int = DEFAULT_DPI) -> Figure:
    """A figure on an Agg canvas, outside pyplot (nothing to close, no GUI), with the
    constrained layout engine (its size stays exactly ``width_in`` × ``height_in`` inches).

    >>> fig = new_figure(4, 3)
    >>> fig.get_size_inches().tolist(), fig.dpi
    ([4.0, 3.0], 100)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width_in, height_in), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def pixel_size(fig: Figure, dpi: float | None = None) -> tuple[int, int]:
    """Width and height in pixels of the PNG that :func:`save_figure` writes for ``fig``.

    >>> pixel_size(new_figure(12, 7.5))
    (1200, 750)
    """
    d = fig.dpi if dpi is None else dpi
    w, h = fig.get_size_inches()
    return round(float(w * d)), round(float(h * d))


def _format_to_write(path: str | Path, fmt: str | None) -> str:
    """The format ``save_figure`` writes: ``fmt`` (default ``svg``) on standard output, else the
    one the suffix names, which ``fmt`` (if given) must be."""
    if is_stdio(path):
        fmt = fmt or "svg"
        if fmt not in _STABLE_METADATA:
            raise InvalidDataError(
                gettext("unknown picture format {fmt}; expected png, svg or pdf").format(fmt=repr(fmt))
            )
        return fmt
    named = figure_format(path)
    if fmt is not None and fmt != named:
        raise InvalidDataError(
            gettext("{path}: the suffix says {suffix}, the format asked is {fmt}").format(
                path=path, suffix=named, fmt=fmt
            )
        )
    return named


def save_figure(
    fig: Figure,
    path: str | Path,
    *,
    inputs: Iterable[str | Path] = (),
    dpi: float | None = None,
    fmt: str | None = None,
) -> Path:
    """Write ``fig`` to ``path`` atomically in the format of its suffix, then close it.

    Parameters
    ----------
    fig:
        The figure (from :func:`new_figure` or pyplot).
    path:
        Output file; ``.png``, ``.svg`` or ``.pdf`` (case-insensitive); ``-``: standard output
        (whole or nothing; PNG and PDF are refused on a terminal).
    inputs:
        The command's input files: writing over one of them is refused.
    dpi:
        Resolution of PNG output; default the figure's own.
    fmt:
        ``png``, ``svg`` or ``pdf``: the format, for ``path`` ``-`` (standard output; default
        ``svg``), or the one its suffix must name.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    InvalidDataError
        Unknown suffix, ``path`` is an input file, its folder does not exist, or the write
        failed (disk full, no permission); nothing is left at ``path`` then.
    """

    translate_figure(fig)
    fmt = _format_to_write(path, fmt)
    metadata = _STABLE_METADATA[fmt]

    def write(tmp: Path) -> None:
        fig.savefig(tmp, format=fmt, dpi=dpi if dpi is not None else fig.dpi, metadata=metadata)
        # the temporary file is private (0600); a picture gets the usual permissions
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)

    def output() -> Path:
        if is_stdio(path):

            def write_memory(buffer: Any) -> None:
                fig.savefig(buffer, format=fmt, dpi=dpi if dpi is not None else fig.dpi, metadata=metadata)

            write_stdout(write_memory, binary_format=None if fmt == "svg" else fmt)
            return Path(path)
        return write_atomic(path, write, inputs=tuple(Path(p) for p in inputs))

    try:
        if fmt == "svg":
            import matplotlib

            with matplotlib.rc_context({"svg.hashsalt": "szwadron"}):  # stable element ids
                return output()
        return output()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise InvalidDataError(
            gettext("{path}: cannot write the picture: {reason}").format(path=path, reason=reason)
        ) from exc
    finally:
        close_figure(fig)


#: Texts of the last figure translated that have no translation (for ``scripts/catalog.py``'s
#: survey of the pictures); only filled when :data:`UNTRANSLATED` is a list.
UNTRANSLATED: list[str] | None = None


def translate_figure(fig: Figure) -> None:
    """The figure's words in the chosen language (issue 19): every text of the figure (titles,
    axis names, keys, labels) whose whole string is a message id of the catalog is replaced by
    its translation; numbers, unit ids and texts built already translated stay as they are. The
    drawing code keeps its English words; the static ones are marked for the catalog in
    :mod:`szwadron.plots._words`, the ones with numbers are built with :func:`~szwadron.i18n._`."""
    from matplotlib.text import Text

    if current_language() == "en":
        return
    for text in fig.findobj(Text):
        words = text.get_text()
        if not words or not any(c.isalpha() for c in words):
            continue
        translated = gettext(words)
        if translated != words:
            text.set_text(translated)
        elif UNTRANSLATED is not None:
            UNTRANSLATED.append(words)


def close_figure(fig: Figure) -> None:
    """Release a figure: pyplot forgets it if it knew it (figures from :func:`new_figure` are
    not pyplot's and need nothing)."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close(fig)


__all__ = [
    "DEFAULT_DPI",
    "FORMATS",
    "close_figure",
    "figure_format",
    "new_figure",
    "pixel_size",
    "save_figure",
    "translate_figure",
    "use_agg",
]
